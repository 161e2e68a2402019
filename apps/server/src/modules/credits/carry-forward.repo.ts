import { sql } from 'kysely';
import type { Tx } from '../../db/database.js';

/**
 * The data cleanup's delete of ledger entries ("Opening balance carried forward":
 * docs/product.md, Credits and the ledger). The ledger is immutable to the app role; the one sanctioned delete is the owner's
 * SECURITY DEFINER function `ledger_cleanup` (migration 0015), which in one statement writes a
 * carry-forward entry per remaining user and credit type for what it removes, then deletes, so
 * no remaining balance changes.
 */
export interface LedgerCleanup {
  /** Entries created in [from, to) are deleted; omit both to select by user only. */
  from?: Date;
  to?: Date;
  /** Users about to be deleted: every entry to or by them goes too (and is not carried). */
  userIds?: readonly string[];
  /** The Admin doing the cleanup: the carry-forward entries are by this user. */
  actorId: string;
}

/** Runs in the caller's transaction; answers the number of entries deleted. */
export async function cleanupLedger(tx: Tx, c: LedgerCleanup): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT ledger_cleanup(${c.from ?? null}::timestamptz, ${c.to ?? null}::timestamptz,
      ${c.userIds ? [...c.userIds] : null}::uuid[], ${c.actorId}::uuid) AS n`.execute(tx);
  return Number(rows[0]?.n ?? 0);
}
