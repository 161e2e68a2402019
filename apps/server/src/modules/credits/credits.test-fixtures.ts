import { sql } from 'kysely';
import type { CreateCreditBody, CreditType } from '@herald/contract';
import type { Db } from '../../db/database.js';
import type { TestApp } from '../../../test/harness.js';

/** Test-only helpers shared by the credits tests. */

export const NORMAL: CreditType = 'Normal Message - domestic';
export const DP: CreditType = 'With DP - domestic';

export function postCredit(
  t: TestApp,
  token: string | undefined,
  body: Partial<CreateCreditBody> | Record<string, unknown>,
  idempotencyKey?: string,
) {
  return t.request({
    method: 'POST',
    url: '/api/credits',
    token,
    payload: body,
    headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
  });
}

/** A valid body; `over` replaces fields. */
export function creditBody(
  to: string,
  over: Partial<CreateCreditBody> | Record<string, unknown> = {},
): Record<string, unknown> {
  return { to, creditType: NORMAL, count: 5, rate: 0.25, type: 'Added', ...over };
}

export async function balanceOf(db: Db, userId: string, creditType: CreditType = NORMAL) {
  const row = await db
    .selectFrom('credit_balances')
    .select(['balance', 'total_added', 'total_removed'])
    .where('user_id', '=', userId)
    .where('credit_type', '=', creditType)
    .executeTakeFirst();
  return row ? Number(row.balance) : 0;
}

export async function countEntries(db: Db): Promise<number> {
  const row = await db
    .selectFrom('credit_transactions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The ledger checker as SQL: no negative balance, each balance the sum of its entries, no
 * entry changed. Each list names the offending
 * rows and is empty when the ledger is sound.
 */
export async function ledgerViolations(db: Db) {
  const balanceMismatch = await sql<{ user_id: string; credit_type: string }>`
    SELECT coalesce(b.user_id, e.to_user_id) AS user_id,
           coalesce(b.credit_type, e.credit_type) AS credit_type
    FROM credit_balances b
    FULL JOIN (
      SELECT to_user_id, credit_type,
             sum(count) FILTER (WHERE type = 'Added') AS added,
             sum(count) FILTER (WHERE type = 'Removed') AS removed
      FROM credit_transactions GROUP BY to_user_id, credit_type
    ) e ON e.to_user_id = b.user_id AND e.credit_type = b.credit_type
    WHERE b.balance IS DISTINCT FROM coalesce(e.added, 0) - coalesce(e.removed, 0)
       OR b.total_added IS DISTINCT FROM coalesce(e.added, 0)
       OR b.total_removed IS DISTINCT FROM coalesce(e.removed, 0)`.execute(db);
  const negative = await sql<{ user_id: string }>`
    SELECT user_id FROM credit_balances WHERE balance < 0`.execute(db);
  const brokenGroups = await sql<{ group_id: string }>`
    SELECT group_id FROM credit_transactions
    WHERE kind IN ('transfer_in', 'transfer_out')
    GROUP BY group_id
    HAVING count(*) <> 2
        OR count(*) FILTER (WHERE kind = 'transfer_in' AND type = 'Added') <> 1
        OR count(*) FILTER (WHERE kind = 'transfer_out' AND type = 'Removed') <> 1
        OR sum(CASE WHEN type = 'Added' THEN count ELSE -count END) <> 0
        OR count(DISTINCT credit_type) <> 1`.execute(db);
  return {
    balanceMismatch: balanceMismatch.rows,
    negative: negative.rows,
    brokenGroups: brokenGroups.rows,
  };
}

/** Σ of every balance of every user (per credit type). */
export async function totalsByType(db: Db): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('credit_balances')
    .select(['credit_type', sql<string>`sum(balance)`.as('n')])
    .groupBy('credit_type')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.credit_type, Number(r.n)]));
}
