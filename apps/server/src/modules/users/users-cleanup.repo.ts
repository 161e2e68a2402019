import { sql } from 'kysely';
import type { Tx } from '../../db/database.js';

/**
 * The data cleanup's delete of users (docs/product.md, Backup and storage), in the caller's
 * transaction: users created in a range, never an Admin. Callers delete the users' campaigns,
 * tickets and ledger entries first (the ledger refers to users without a cascade). The users
 * module's public face (index.ts) offers these to the cleanup.
 */

/** Locks and answers the non-Admin users created in [from, to). */
export async function lockUsersCreatedBetween(tx: Tx, from: Date, to: Date): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM users
    WHERE created_at >= ${from} AND created_at < ${to} AND role <> 'Admin'
    ORDER BY id
    FOR UPDATE`.execute(tx);
  return rows.map((r) => r.id);
}

/**
 * Users who stay but were created by a user who goes are moved under their nearest remaining
 * creator (an Admin at worst, or none), so no remaining user points at a deleted one.
 */
export async function reparentSurvivors(tx: Tx, userIds: readonly string[]): Promise<void> {
  const ids = [...userIds];
  await sql`
    UPDATE users u
    SET ancestors = kept.ancestors,
        created_by = kept.ancestors[cardinality(kept.ancestors)]
    FROM (
      SELECT s.id, coalesce(
        (SELECT array_agg(a ORDER BY ord) FROM unnest(s.ancestors) WITH ORDINALITY x(a, ord)
         WHERE NOT (a = ANY (${ids}::uuid[]))), '{}') AS ancestors
      FROM users s
      WHERE s.ancestors && ${ids}::uuid[] AND NOT (s.id = ANY (${ids}::uuid[]))
    ) kept
    WHERE u.id = kept.id`.execute(tx);
}

/** Deletes the users (never an Admin); answers how many. */
export async function deleteUsers(tx: Tx, userIds: readonly string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const res = await sql`
    DELETE FROM users WHERE id = ANY (${[...userIds]}::uuid[]) AND role <> 'Admin'`.execute(tx);
  return Number(res.numAffectedRows ?? 0);
}
