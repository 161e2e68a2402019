import type pg from 'pg';
import { CREDIT_TYPES, type CreditTransactionType, type CreditType } from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import { usersInScope, type Actor } from '../../policies/scope.js';
import { CREDIT_TRANSACTION_COLUMNS, type PresentableRow } from './credits.presenter.js';

/**
 * Reads of Transaction History (decisions.md section 3): keyset pages, newest first, each one
 * ordered index range. Which entries a caller may see:
 * - `all` (Admin): the primary key, backwards; with a credit type, the (credit_type, id) index;
 * - `viewer` (Reseller, Sub-Reseller): its rows of credit_transaction_viewers, backwards;
 * - `to` (User): the (to_user_id, id) index, backwards.
 * A user filter ("to or by is X") is a UNION ALL of the (to_user_id, id) and (by_user_id, id)
 * ranges, each already limited, merged by id. Every value is a bound parameter.
 */
export type HistoryScope =
  { kind: 'all' } | { kind: 'viewer'; viewerId: string } | { kind: 'to'; userId: string };

export interface HistoryFilter {
  /** Entries whose `to` or `by` is this user (already checked to be one the caller may see). */
  userId?: string;
  type?: CreditTransactionType;
  creditType?: CreditType;
  /** created_at >= from */
  from?: Date;
  /** created_at < until */
  until?: Date;
  /** Keyset cursor: only ids below this one. */
  before?: string;
}

type Param = 'scope' | 'user' | 'type' | 'creditType' | 'from' | 'until' | 'before' | 'limit';

interface Statement {
  name: string;
  text: string;
  params: Param[];
  /** Named (parsed and planned once per connection) unless a date range makes plans differ. */
  prepare: boolean;
}

const COLUMNS = CREDIT_TRANSACTION_COLUMNS.map((c) => c.replace('credit_transactions.', 't.'));
const SELECT = `SELECT ${COLUMNS.join(', ')}`;
const statements = new Map<string, Statement>();

function statement(kind: HistoryScope['kind'], f: HistoryFilter): Statement {
  const flags = [f.userId, f.type, f.creditType, f.from, f.until, f.before];
  const key = `${kind}_${flags.map((v) => (v === undefined ? 0 : 1)).join('')}`;
  let st = statements.get(key);
  if (!st) {
    st = build(kind, f, key);
    statements.set(key, st);
  }
  return st;
}

function build(kind: HistoryScope['kind'], f: HistoryFilter, key: string): Statement {
  const params: Param[] = [];
  const p = (name: Param): string => {
    if (!params.includes(name)) params.push(name);
    return `$${params.indexOf(name) + 1}`;
  };
  const where = (conds: string[]) => (conds.length ? ` WHERE ${conds.join(' AND ')}` : '');
  const filters = (id: string, row = 't'): string[] => [
    ...(f.before ? [`${id} < ${p('before')}`] : []),
    ...(f.type ? [`${row}.type = ${p('type')}`] : []),
    ...(f.creditType ? [`${row}.credit_type = ${p('creditType')}`] : []),
    ...(f.from ? [`${row}.created_at >= ${p('from')}`] : []),
    ...(f.until ? [`${row}.created_at < ${p('until')}`] : []),
  ];
  let text: string;
  if (kind === 'viewer' && !f.userId) {
    text =
      `${SELECT} FROM credit_transaction_viewers v` +
      ` JOIN credit_transactions t ON t.id = v.transaction_id` +
      // The cursor bounds both sides: without `t.id < …` the planner may merge-join from the
      // newest entry down to the cursor (1M rows read for a deep page of a big reseller).
      where([
        `v.viewer_id = ${p('scope')}`,
        ...filters('v.transaction_id'),
        ...(f.before ? [`t.id < ${p('before')}`] : []),
      ]) +
      ` ORDER BY v.transaction_id DESC LIMIT ${p('limit')}`;
  } else if (kind === 'all' && !f.userId && f.creditType) {
    // One credit type: the page's ids come from the (credit_type, id) index alone (an
    // index-only scan), then each row by primary key. Walking the primary key and filtering
    // reads every row of the other types in between: thousands when a type's entries come in
    // runs. Asked directly, the planner keeps that walk, as the type index's heap order looks
    // random to it. The lateral LIMIT 1 keeps the lookups a nested loop whatever the planner
    // guesses of a parameter LIMIT (a generic plan would hash-join the whole table).
    text =
      `${SELECT} FROM (SELECT k.id FROM credit_transactions k${where(filters('k.id', 'k'))}` +
      ` ORDER BY k.id DESC LIMIT ${p('limit')}) k` +
      ` CROSS JOIN LATERAL (SELECT * FROM credit_transactions r WHERE r.id = k.id LIMIT 1) t` +
      ` ORDER BY k.id DESC`;
  } else if (kind === 'to' || !f.userId) {
    const conds = kind === 'to' ? [`t.to_user_id = ${p('scope')}`] : [];
    if (kind === 'to' && f.userId) {
      conds.push(`(t.to_user_id = ${p('user')} OR t.by_user_id = ${p('user')})`);
    }
    text =
      `${SELECT} FROM credit_transactions t` +
      where([...conds, ...filters('t.id')]) +
      ` ORDER BY t.id DESC LIMIT ${p('limit')}`;
  } else {
    const visible =
      kind === 'viewer'
        ? [
            `EXISTS (SELECT 1 FROM credit_transaction_viewers v` +
              ` WHERE v.viewer_id = ${p('scope')} AND v.transaction_id = t.id)`,
          ]
        : [];
    const arm = (match: string) =>
      `(${SELECT} FROM credit_transactions t` +
      where([match, ...filters('t.id'), ...visible]) +
      ` ORDER BY t.id DESC LIMIT ${p('limit')})`;
    const user = p('user');
    text =
      `SELECT * FROM (${arm(`t.to_user_id = ${user}`)}` +
      ` UNION ALL ${arm(`t.by_user_id = ${user} AND t.to_user_id <> ${user}`)}) t` +
      ` ORDER BY t.id DESC LIMIT ${p('limit')}`;
  }
  return { name: `history_${key}`, text, params, prepare: !f.from && !f.until };
}

/** One page of entries the scope may see, newest first. */
export async function historyRows(
  pool: pg.Pool,
  scope: HistoryScope,
  filter: HistoryFilter,
  limit: number,
): Promise<PresentableRow[]> {
  const st = statement(scope.kind, filter);
  const values: Record<Param, unknown> = {
    scope: scope.kind === 'viewer' ? scope.viewerId : scope.kind === 'to' ? scope.userId : null,
    user: filter.userId,
    type: filter.type,
    creditType: filter.creditType,
    from: filter.from,
    until: filter.until,
    before: filter.before,
    limit,
  };
  const query = { text: st.text, values: st.params.map((name) => values[name]) };
  const res = await pool.query<PresentableRow>(st.prepare ? { ...query, name: st.name } : query);
  return res.rows;
}

/** The SQL a page runs (for EXPLAIN in tests and benchmarks). */
export function historySql(scope: HistoryScope['kind'], filter: HistoryFilter) {
  const { text, params } = statement(scope, filter);
  return { text, params };
}

/** A user by email with what scope checks need, or undefined. */
export function findUserByEmail(db: DbOrTx, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'ancestors'])
    .where('email', '=', email)
    .executeTakeFirst();
}

/** The user's own balances, in the order of CREDIT_TYPES. */
export async function ownBalances(db: DbOrTx, userId: string) {
  const rows = await db
    .selectFrom('credit_balances')
    .select(['credit_type', 'balance'])
    .where('user_id', '=', userId)
    .execute();
  return rows
    .map((r) => ({ creditType: r.credit_type, balance: Number(r.balance) }))
    .sort((a, b) => CREDIT_TYPES.indexOf(a.creditType) - CREDIT_TYPES.indexOf(b.creditType));
}

/** "All Relevant Users": the caller's scope, itself included, by name. */
export function filterableUsers(db: DbOrTx, actor: Actor) {
  return db
    .selectFrom('users')
    .select(['name', 'email'])
    .where(usersInScope(actor))
    .orderBy('name')
    .orderBy('email')
    .execute();
}
