import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { usersInScope, type Actor } from '../../policies/scope.js';
import { CREDIT_TRANSACTION_COLUMNS, type PresentableRow } from './credits.presenter.js';

/** Reads of the credits module; each list takes the caller's scope. */

/**
 * Latest entries in the actor's scope, newest first. Admin: all; Reseller/Sub-Reseller: its
 * viewer rows (one index range); User: entries on its own account.
 */
export function listInScope(
  db: DbOrTx,
  actor: Actor,
  limit: number,
  cursor?: string,
): Promise<PresentableRow[]> {
  const base = db.selectFrom('credit_transactions').select(CREDIT_TRANSACTION_COLUMNS);
  if (actor.role === 'Admin') {
    return base
      .$if(cursor !== undefined, (q) => q.where('credit_transactions.id', '<', cursor!))
      .orderBy('credit_transactions.id', 'desc')
      .limit(limit)
      .execute();
  }
  if (actor.role === 'User') {
    return base
      .where('credit_transactions.to_user_id', '=', actor.id)
      .$if(cursor !== undefined, (q) => q.where('credit_transactions.id', '<', cursor!))
      .orderBy('credit_transactions.id', 'desc')
      .limit(limit)
      .execute();
  }
  return base
    .innerJoin('credit_transaction_viewers as v', 'v.transaction_id', 'credit_transactions.id')
    .where('v.viewer_id', '=', actor.id)
    .$if(cursor !== undefined, (q) => q.where('v.transaction_id', '<', cursor!))
    .orderBy('v.transaction_id', 'desc')
    .limit(limit)
    .execute();
}

/** What a scope check needs of a user found by email. */
export function findScopedUserByEmail(db: DbOrTx, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'ancestors'])
    .where('email', '=', email)
    .executeTakeFirst();
}

/** Entries on one user's account, newest first (the caller checked the scope). */
export function listForAccount(db: DbOrTx, userId: string, limit: number, cursor?: string) {
  return db
    .selectFrom('credit_transactions')
    .select(CREDIT_TRANSACTION_COLUMNS)
    .where('credit_transactions.to_user_id', '=', userId)
    .$if(cursor !== undefined, (q) => q.where('credit_transactions.id', '<', cursor!))
    .orderBy('credit_transactions.id', 'desc')
    .limit(limit)
    .execute();
}

/** One balance row as the balances map takes it. */
export interface BalanceRow {
  email: string;
  creditType: string;
  balance: number;
}

/**
 * A keyset page of balances: the first `limit` users of the actor's scope holding balance rows,
 * by email after `cursor`, with all their rows. Reads `users_email_key` in order (an Admin's
 * page stops after `limit` users; a reseller's scope is its subtree) and each user's rows by
 * the balances' primary key. `emails` are the page's users in the database's order; `more`
 * tells whether a user follows the last of them.
 */
export async function balancesPage(
  db: DbOrTx,
  actor: Actor,
  limit: number,
  cursor?: string,
): Promise<{ emails: string[]; rows: BalanceRow[]; more: boolean }> {
  const users = await balancePageUsers(db, actor, limit + 1, cursor).execute();
  const shown = users.slice(0, limit);
  if (!shown.length) return { emails: [], rows: [], more: false };
  const emailOf = new Map(shown.map((u) => [u.id, u.email]));
  const rows = await db
    .selectFrom('credit_balances')
    .select(['user_id', 'credit_type', 'balance'])
    .where('user_id', 'in', [...emailOf.keys()])
    .orderBy('credit_type')
    .execute();
  return {
    emails: shown.map((u) => u.email),
    rows: rows.map((r) => ({
      email: emailOf.get(r.user_id)!,
      creditType: r.credit_type,
      balance: Number(r.balance),
    })),
    more: users.length > limit,
  };
}

/** The users of a balances page: in scope, holding balance rows, by email after `cursor`. */
export function balancePageUsers(db: DbOrTx, actor: Actor, limit: number, cursor?: string) {
  return db
    .selectFrom('users')
    .select(['users.id', 'users.email'])
    .where(usersInScope(actor))
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('credit_balances as has')
          .select(sql`1`.as('one'))
          .whereRef('has.user_id', '=', 'users.id'),
      ),
    )
    .$if(cursor !== undefined, (q) => q.where('users.email', '>', cursor!))
    .orderBy('users.email')
    .limit(limit);
}

/** One user's existing balance rows (the caller checked the scope). */
export async function balancesOf(db: DbOrTx, userId: string) {
  const rows = await db
    .selectFrom('credit_balances')
    .select(['credit_type', 'balance'])
    .where('user_id', '=', userId)
    .orderBy('credit_type')
    .execute();
  return rows.map((r) => ({ creditType: r.credit_type, balance: Number(r.balance) }));
}

/** The first instant of the current calendar month in UTC. */
const MONTH_START = sql<Date>`date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

/** Credits the Admins minted this month, per credit type (Admin dashboard's "Credits Sent (Month)"). */
export async function mintedThisMonthByType(db: DbOrTx) {
  const rows = await db
    .selectFrom('credit_transactions')
    .select(['credit_type', sql<string>`sum(count)`.as('n')])
    .where('kind', '=', 'mint')
    .where('created_at', '>=', MONTH_START)
    .groupBy('credit_type')
    .execute();
  return rows.map((r) => ({ creditType: r.credit_type, count: Number(r.n) }));
}
