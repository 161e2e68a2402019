import { sql } from 'kysely';
import type { CreditTransactionType, CreditType } from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';
import type { LedgerKind } from '../../db/schema.js';
import type { PresentableRow } from './credits.presenter.js';
import { compiler, param, prepared } from '../../db/prepared.js';

/**
 * The ledger's writes. Balance rows change only here and only inside the caller's transaction,
 * next to the entry that moves them (docs/product.md, Credits and the ledger). The balance columns are typed
 * read-only in db/schema.ts, so these statements are written in SQL.
 */

const decrementQuery = prepared(
  'ledger.decrementBalance',
  { userId: param<string>(), creditType: param<CreditType>(), count: param<number>() },
  // The owner's low-balance threshold comes back with the balance (one primary-key lookup), so
  // a debit asks nothing more unless it crosses it (webhooks' credits.low_balance).
  (p) => sql<{ balance: string; threshold: number | null }>`
    UPDATE credit_balances
       SET balance = balance - ${p.count}::bigint, total_removed = total_removed + ${p.count}::bigint
     WHERE user_id = ${p.userId}::uuid AND credit_type = ${p.creditType}
       AND balance >= ${p.count}::bigint
     RETURNING balance, (SELECT s.low_balance_threshold FROM webhook_settings s
                          WHERE s.user_id = ${p.userId}::uuid) AS threshold`,
);

/**
 * Takes `count` off a balance in one conditional statement. Under READ COMMITTED a concurrent
 * debit waits for the row lock and then re-checks `balance >= count` on the newest row version,
 * so no interleaving overdraws. Null: not enough credits.
 */
export async function decrementBalance(
  tx: Tx,
  userId: string,
  creditType: CreditType,
  count: number,
): Promise<{ balance: number; threshold: number | null } | null> {
  const rows = await decrementQuery.run(tx, { userId, creditType, count });
  const row = rows[0];
  return row ? { balance: Number(row.balance), threshold: row.threshold } : null;
}

/** A balance as it stands (0 when the user never held this type); no lock, no write. */
export async function balanceOf(
  db: DbOrTx,
  userId: string,
  creditType: CreditType,
): Promise<number> {
  const row = await db
    .selectFrom('credit_balances')
    .select('balance')
    .where('user_id', '=', userId)
    .where('credit_type', '=', creditType)
    .executeTakeFirst();
  return row ? Number(row.balance) : 0;
}

const incrementQuery = prepared(
  'ledger.incrementBalance',
  { userId: param<string>(), creditType: param<CreditType>(), count: param<number>() },
  (p) => sql<{ balance: string }>`
    INSERT INTO credit_balances (user_id, credit_type, balance, total_added)
    VALUES (${p.userId}::uuid, ${p.creditType}, ${p.count}::bigint, ${p.count}::bigint)
    ON CONFLICT (user_id, credit_type) DO UPDATE
       SET balance = credit_balances.balance + EXCLUDED.balance,
           total_added = credit_balances.total_added + EXCLUDED.total_added
    RETURNING balance`,
);

/** Adds `count` to a balance, creating the row on the user's first credit of this type. */
export async function incrementBalance(
  tx: Tx,
  userId: string,
  creditType: CreditType,
  count: number,
): Promise<number> {
  const row = (await incrementQuery.run(tx, { userId, creditType, count }))[0];
  if (!row) throw new Error('credit_balances upsert returned no row');
  return Number(row.balance);
}

export interface NewEntry {
  groupId: string;
  /** The account whose balance moved (the entry's "to"). */
  toUserId: string;
  /** Who made the movement (the entry's "by"). */
  byUserId: string;
  type: CreditTransactionType;
  creditType: CreditType;
  count: number;
  ratePaise: number | null;
  reason: string | null;
  kind: LedgerKind;
  campaignId: string | null;
}

const insertEntryQuery = prepared(
  'ledger.insertEntry',
  {
    groupId: param<string>(),
    toUserId: param<string>(),
    byUserId: param<string>(),
    type: param<CreditTransactionType>(),
    creditType: param<CreditType>(),
    count: param<number>(),
    ratePaise: param<number | null>(),
    reason: param<string | null>(),
    kind: param<LedgerKind>(),
    campaignId: param<string | null>(),
  },
  (e) => sql<PresentableRow>`
    WITH entry AS (
      INSERT INTO credit_transactions (group_id, to_user_id, to_email, to_name, by_user_id,
        by_email, by_name, type, credit_type, count, rate_paise, total_paise, reason, kind,
        campaign_id)
      SELECT ${e.groupId}::uuid, t.id, t.email, t.name, b.id, b.email, b.name, ${e.type},
        ${e.creditType}, ${e.count}::bigint, ${e.ratePaise}::bigint,
        ${e.count}::bigint * ${e.ratePaise}::bigint, ${e.reason}::text, ${e.kind},
        ${e.campaignId}::uuid
      FROM users t, users b
      WHERE t.id = ${e.toUserId}::uuid AND b.id = ${e.byUserId}::uuid
      RETURNING *
    ), viewers AS (
      INSERT INTO credit_transaction_viewers (viewer_id, transaction_id)
      SELECT DISTINCT v.id, entry.id
      FROM entry
      JOIN users t ON t.id = entry.to_user_id
      JOIN users b ON b.id = entry.by_user_id
      JOIN users v ON v.id = ANY (t.ancestors || t.id || b.ancestors || b.id)
      WHERE v.role IN ('Reseller', 'Sub-Reseller')
    )
    SELECT id, to_email, to_name, by_email, by_name, type, credit_type, count, rate_paise,
      total_paise, reason, created_at
    FROM entry`,
);

/**
 * Writes one immutable entry and its viewer rows in one statement. Names and emails are
 * snapshots taken from `users` now, so the entry reads the same after a rename. The total is
 * count × rate computed by PostgreSQL in bigint paise (null when no rate). Viewers are the
 * Resellers and Sub-Resellers among to, by and their creators: exactly those whose scope
 * holds the entry's to or by user.
 */
export async function insertEntry(tx: Tx, e: NewEntry): Promise<PresentableRow> {
  const row = (await insertEntryQuery.run(tx, e))[0];
  if (!row) throw new Error('ledger entry for an unknown user');
  return row;
}

const userByEmailForShare = prepared(
  'ledger.userByEmailForShare',
  { email: param<string>() },
  (p) =>
    compiler
      .selectFrom('users')
      .select(['id', 'email', 'name', 'role', 'status', 'ancestors'])
      .where('email', '=', p.email)
      .forShare(),
);

/** A user as the ledger needs it: the row lock keeps its status from changing under us. */
export async function findUserByEmailForShare(tx: DbOrTx, email: string) {
  return (await userByEmailForShare.run(tx, { email }))[0];
}
