import type pg from 'pg';
import {
  CREDIT_TYPES,
  HISTORY_FILTER_USERS_MAX,
  HISTORY_PAGE_DEFAULT,
  type CreditTransactionType,
  type CreditType,
} from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import { compiler, param, prepared } from '../../db/prepared.js';
import { usersInScope, type Actor } from '../../policies/scope.js';
import { CREDIT_TRANSACTION_COLUMNS, type PresentableRow } from './credits.presenter.js';

/**
 * Reads of Transaction History (docs/product.md, Credits and the ledger): keyset pages, newest first, each one
 * ordered index range. Which entries a caller may see:
 * - `all` (Admin): the primary key, backwards; with a credit type, the (credit_type, id) index;
 * - `viewer` (Reseller, Sub-Reseller): its rows of credit_transaction_viewers, backwards;
 * - `to` (User): the (to_user_id, id) index, backwards.
 * A user filter ("to or by is X") is a UNION ALL of the (to_user_id, id) and (by_user_id, id)
 * ranges, each already limited, merged by id. Every value is a bound parameter but the page
 * size, a validated integer written into the text: with `LIMIT $n` PostgreSQL costs a generic
 * plan for a tenth of the table, never prefers it, and plans each execution again (0.1 ms of a
 * 0.3 ms reseller page); with the size in the text a named statement settles on its generic plan.
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

type Param = 'scope' | 'user' | 'type' | 'creditType' | 'from' | 'until' | 'before';

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

function statement(
  kind: HistoryScope['kind'],
  f: HistoryFilter,
  limit: number,
  balances = false,
): Statement {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`bad page size ${limit}`);
  const flags = [f.userId, f.type, f.creditType, f.from, f.until, f.before];
  const key = `${kind}_${flags.map((v) => (v === undefined ? 0 : 1)).join('')}_${limit}`;
  const name = balances ? `${key}_b` : key;
  let st = statements.get(name);
  if (!st) {
    st = build(kind, f, key, limit);
    if (balances) st = withBalances(st);
    statements.set(name, st);
  }
  return st;
}

/**
 * A first page of a Reseller, Sub-Reseller or User also carries the caller's own balances (the
 * scope's id), in the same round trip: a second query alongside took a second connection and
 * backend and about 0.1 ms more server CPU. The subquery runs once (an InitPlan), its text on
 * the first row only (on every row it doubled what PostgreSQL sends, in 8 kB flushes). A page
 * without rows carries none: the caller reads them apart.
 */
function withBalances(st: Statement): Statement {
  const scope = st.params.indexOf('scope') + 1;
  if (scope === 0) throw new Error('only a scoped page carries its own balances');
  return {
    ...st,
    name: `${st.name}_b`,
    text:
      `SELECT p.*, CASE WHEN row_number() OVER (ORDER BY p.id DESC) = 1 THEN` +
      ` (SELECT coalesce(json_agg(json_build_array(b.credit_type, b.balance)), '[]')::text` +
      ` FROM credit_balances b WHERE b.user_id = $${scope}) END AS balances` +
      ` FROM (${st.text}) p ORDER BY p.id DESC`,
  };
}

function build(
  kind: HistoryScope['kind'],
  f: HistoryFilter,
  key: string,
  limit: number,
): Statement {
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
  const rowFilters = f.type || f.creditType || f.from || f.until;
  if (kind === 'viewer' && !f.userId && !rowFilters) {
    // The page's ids from the viewer rows alone, then each entry by primary key (as for a
    // credit type below): a merge join walks every entry between the newest and the page's
    // last, about 20 per row of a reseller's (1,000 for a page of 50). A filter on the entry's
    // own columns needs the join below, as the ids alone cannot be limited before it.
    text =
      `${SELECT} FROM (SELECT v.transaction_id AS id FROM credit_transaction_viewers v` +
      where([`v.viewer_id = ${p('scope')}`, ...filters('v.transaction_id')]) +
      ` ORDER BY v.transaction_id DESC LIMIT ${limit}) k` +
      ` CROSS JOIN LATERAL (SELECT * FROM credit_transactions r WHERE r.id = k.id LIMIT 1) t` +
      ` ORDER BY k.id DESC`;
  } else if (kind === 'viewer' && !f.userId) {
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
      ` ORDER BY v.transaction_id DESC LIMIT ${limit}`;
  } else if (kind === 'all' && !f.userId && f.creditType) {
    // One credit type: the page's ids come from the (credit_type, id) index alone (an
    // index-only scan), then each row by primary key. Walking the primary key and filtering
    // reads every row of the other types in between: thousands when a type's entries come in
    // runs. Asked directly, the planner keeps that walk, as the type index's heap order looks
    // random to it. The lateral LIMIT 1 keeps the lookups a nested loop whatever the planner
    // guesses of a parameter LIMIT (a generic plan would hash-join the whole table).
    text =
      `${SELECT} FROM (SELECT k.id FROM credit_transactions k${where(filters('k.id', 'k'))}` +
      ` ORDER BY k.id DESC LIMIT ${limit}) k` +
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
      ` ORDER BY t.id DESC LIMIT ${limit}`;
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
      ` ORDER BY t.id DESC LIMIT ${limit})`;
    const user = p('user');
    text =
      `SELECT * FROM (${arm(`t.to_user_id = ${user}`)}` +
      ` UNION ALL ${arm(`t.by_user_id = ${user} AND t.to_user_id <> ${user}`)}) t` +
      ` ORDER BY t.id DESC LIMIT ${limit}`;
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
  return runPage<PresentableRow>(pool, statement(scope.kind, filter, limit), scope, filter);
}

export interface OwnBalance {
  creditType: CreditType;
  balance: number;
}

/**
 * A first page of a scoped caller with its own balances; `balances` is undefined when the page
 * has no rows to carry them.
 */
export async function historyFirstPage(
  pool: pg.Pool,
  scope: Exclude<HistoryScope, { kind: 'all' }>,
  filter: HistoryFilter,
  limit: number,
): Promise<{ rows: PresentableRow[]; balances: OwnBalance[] | undefined }> {
  const st = statement(scope.kind, filter, limit, true);
  const rows = await runPage<PresentableRow & { balances: string | null }>(pool, st, scope, filter);
  const carried = rows[0]?.balances;
  const balances = carried ? sortBalances(parseBalances(carried)) : undefined;
  return { rows, balances };
}

function parseBalances(json: string): OwnBalance[] {
  return (JSON.parse(json) as [CreditType, number][]).map(([creditType, balance]) => ({
    creditType,
    balance,
  }));
}

async function runPage<Row extends pg.QueryResultRow>(
  pool: pg.Pool,
  st: Statement,
  scope: HistoryScope,
  filter: HistoryFilter,
): Promise<Row[]> {
  const values: Record<Param, unknown> = {
    scope: scope.kind === 'viewer' ? scope.viewerId : scope.kind === 'to' ? scope.userId : null,
    user: filter.userId,
    type: filter.type,
    creditType: filter.creditType,
    from: filter.from,
    until: filter.until,
    before: filter.before,
  };
  const query = { text: st.text, values: st.params.map((name) => values[name]) };
  const res = await pool.query<Row>(st.prepare ? { ...query, name: st.name } : query);
  return res.rows;
}

/** The SQL a page runs (for EXPLAIN in tests and benchmarks). */
export function historySql(
  scope: HistoryScope['kind'],
  filter: HistoryFilter,
  limit = HISTORY_PAGE_DEFAULT,
  balances = false,
) {
  const { text, params } = statement(scope, filter, limit, balances);
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

const ownBalancesQuery = prepared('history.ownBalances', { userId: param<string>() }, (p) =>
  compiler
    .selectFrom('credit_balances')
    .select(['credit_type', 'balance'])
    .where('user_id', '=', p.userId),
);

/** The user's own balances, in the order of CREDIT_TYPES. */
export async function ownBalances(pool: pg.Pool, userId: string): Promise<OwnBalance[]> {
  const rows = await ownBalancesQuery.run(pool, { userId });
  return sortBalances(rows.map((r) => ({ creditType: r.credit_type, balance: Number(r.balance) })));
}

function sortBalances(balances: OwnBalance[]): OwnBalance[] {
  return balances.sort(
    (a, b) => CREDIT_TYPES.indexOf(a.creditType) - CREDIT_TYPES.indexOf(b.creditType),
  );
}

/**
 * "All Relevant Users": the caller's scope, itself included, by name, at most
 * HISTORY_FILTER_USERS_MAX of them (not every user, in each first page). The
 * History screen's User filter searches GET /api/users as the user types, so a caller with more
 * users than this still finds each of them; `userEmail` filters by any user of the scope.
 */
export function filterableUsers(db: DbOrTx, actor: Actor) {
  return db
    .selectFrom('users')
    .select(['name', 'email'])
    .where(usersInScope(actor))
    .orderBy('name')
    .orderBy('email')
    .limit(HISTORY_FILTER_USERS_MAX)
    .execute();
}
