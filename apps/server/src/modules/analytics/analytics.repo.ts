// Read-only reporting straight over the ledger and campaign tables (and the rollups migrations
// 0014 and 0026 keep of the ledger), by design: the figures are sums the credits and campaigns services
// have no use for, and one SQL statement per chart beats composing their row-level reads. Nothing
// here writes a ledger or campaign row; the only write is analytics_fold(), the rollup's catch-up.
import { sql, type RawBuilder } from 'kysely';
import type { AnalyticsRange, CreditType } from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Actor } from '../../policies/scope.js';

/** analytics_daily's scope for the Admin: everything. */
const ALL_SCOPE = '00000000-0000-0000-0000-000000000000';

/** The day bounds of one read, as ISO dates ('-infinity' for all time). */
export interface Window {
  /** The range's first UTC day. */
  from: string;
  /** The last day folded into the rollups (W). */
  folded: string;
  /** The first day read from the ledger itself: the day after W, or `from` if later. */
  liveFrom: string;
  /** True when the 7/30/90-day user totals cover exactly `from`..W (W is yesterday). */
  totalsValid: boolean;
  /** The user totals' `days` key: 7, 30, 90, or 0 for all time. */
  days: number;
}

const DAY_MS = 86_400_000;
const addDays = (iso: string, n: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const later = (a: string, b: string) =>
  a === '-infinity' ? b : b === '-infinity' ? a : a > b ? a : b;
const startOf = (day: string) => (day === '-infinity' ? day : `${day}T00:00:00Z`);

/** Folds the rollups up to yesterday when not done yet today; answers W and today (UTC). */
async function fold(db: DbOrTx): Promise<{ w: string; today: string }> {
  const { rows } = await sql<{ w: string; today: string }>`
    SELECT analytics_fold()::text AS w, (now() AT TIME ZONE 'UTC')::date::text AS today`.execute(
    db,
  );
  return rows[0]!;
}

/** Folds the rollups when due, and answers the window of a range. */
export async function openWindow(db: DbOrTx, range: AnalyticsRange): Promise<Window> {
  const { w, today } = await fold(db);
  const days = range === 'all' ? 0 : Number(range);
  const from = days === 0 ? '-infinity' : addDays(today, 1 - days);
  const next = w === '-infinity' ? w : addDays(w, 1);
  return {
    from,
    folded: w,
    liveFrom: later(next, from),
    totalsValid: days === 0 || next === today,
    days,
  };
}

/**
 * Folds the rollups when due, and answers the window of the current calendar month (UTC): the
 * dashboards' "(Month)" figures. Its user totals are never valid (no 'Top Users' over a month).
 */
export async function openMonthWindow(db: DbOrTx): Promise<Window> {
  const { w, today } = await fold(db);
  const from = `${today.slice(0, 8)}01`;
  const next = w === '-infinity' ? w : addDays(w, 1);
  return { from, folded: w, liveFrom: later(next, from), totalsValid: false, days: 0 };
}

/** WHERE on `users u`: the actor's scope, itself included (policies/scope.ts). */
function scopeOf(actor: Actor): RawBuilder<boolean> {
  if (actor.role === 'Admin') return sql<boolean>`true`;
  return sql<boolean>`(u.id = ${actor.id} OR u.ancestors @> ARRAY[${actor.id}]::uuid[])`;
}

const scopeId = (actor: Actor) => (actor.role === 'Admin' ? ALL_SCOPE : actor.id);

/**
 * The scope's own Reseller or Sub-Reseller, whose own account's incoming transfers are received
 * from above, not distributed (migration 0026); the nil uuid for the Admin, matching no account.
 */
const scopeOwner = (actor: Actor) => (actor.role === 'Admin' ? ALL_SCOPE : actor.id);

/**
 * Day, credit type, Added, Removed, Used and Distributed of the scope's entries in the window:
 * rollup + live. Used and Distributed per entry are migration 0026's analytics_used() and
 * analytics_distributed(), so the live days count exactly as the folded ones.
 */
function ledgerDays(actor: Actor, win: Window): RawBuilder<unknown> {
  return sql`
    SELECT day, credit_type, added, removed, used, distributed FROM analytics_daily
    WHERE scope_id = ${scopeId(actor)} AND day >= ${win.from}::date AND day <= ${win.folded}::date
    UNION ALL
    SELECT (t.created_at AT TIME ZONE 'UTC')::date, t.credit_type,
           sum(t.count) FILTER (WHERE t.type = 'Added'), sum(t.count) FILTER (WHERE t.type = 'Removed'),
           sum(analytics_used(t.kind, t.count)),
           sum(analytics_distributed(t.kind, t.count, t.to_user_id, t.by_user_id))
             FILTER (WHERE t.to_user_id <> ${scopeOwner(actor)}::uuid)
    FROM credit_transactions t JOIN users u ON u.id = t.to_user_id
    WHERE t.created_at >= ${startOf(win.liveFrom)}::timestamptz AND ${scopeOf(actor)}
    GROUP BY 1, 2`;
}

export async function creditTotals(
  db: DbOrTx,
  actor: Actor,
  win: Window,
): Promise<{ added: number; used: number; distributed: number }> {
  const { rows } = await sql<{ added: string; used: string; distributed: string }>`
    SELECT coalesce(sum(added), 0)::text AS added, coalesce(sum(used), 0)::text AS used,
           coalesce(sum(distributed), 0)::text AS distributed
    FROM (${ledgerDays(actor, win)}) x`.execute(db);
  const r = rows[0]!;
  return { added: Number(r.added), used: Number(r.used), distributed: Number(r.distributed) };
}

export async function creditsTrend(db: DbOrTx, actor: Actor, win: Window) {
  const { rows } = await sql<{ date: string; added: string; removed: string }>`
    SELECT day::text AS date, coalesce(sum(added), 0)::text AS added,
           coalesce(sum(removed), 0)::text AS removed
    FROM (${ledgerDays(actor, win)}) x GROUP BY day ORDER BY day`.execute(db);
  return rows.map((r) => ({ date: r.date, Added: Number(r.added), Removed: Number(r.removed) }));
}

/** Credits spent on campaigns (net of refunds) per credit type in the window, every type spent. */
export async function usedPerType(db: DbOrTx, actor: Actor, win: Window) {
  const { rows } = await sql<{ credit_type: CreditType; used: string }>`
    SELECT credit_type, sum(used)::text AS used
    FROM (${ledgerDays(actor, win)}) x GROUP BY credit_type HAVING sum(used) <> 0`.execute(db);
  return rows.map((r) => ({ creditType: r.credit_type, count: Number(r.used) }));
}

/** Credits spent on campaigns (net of refunds) per credit type: the 'Credit Types Used' pie. */
export async function creditTypesUsed(db: DbOrTx, actor: Actor, win: Window) {
  const { rows } = await sql<{ name: string; value: string }>`
    SELECT credit_type AS name, sum(used)::text AS value
    FROM (${ledgerDays(actor, win)}) x GROUP BY credit_type HAVING sum(used) > 0
    ORDER BY sum(used) DESC, credit_type`.execute(db);
  return rows.map((r) => ({ name: r.name, value: Number(r.value) }));
}

/**
 * The scope's users by credits spent on campaigns (debits net of refunds) in the window: folded
 * totals + the live days. Transfers down the tree are not spending, so they do not rank.
 */
export async function topUsers(db: DbOrTx, actor: Actor, win: Window, limit: number) {
  const liveFrom = win.totalsValid ? win.liveFrom : win.from;
  const { rows } = await sql<{ name: string; used: string }>`
    SELECT u.name, x.used::text AS used
    FROM (
      SELECT user_id, sum(used) AS used FROM (
        SELECT user_id, used FROM analytics_user_totals
        WHERE days = ${win.days} AND ${win.totalsValid}
        UNION ALL
        SELECT to_user_id, analytics_used(kind, count) FROM credit_transactions
        WHERE kind IN ('campaign_debit', 'campaign_refund')
          AND created_at >= ${startOf(liveFrom)}::timestamptz
      ) r GROUP BY user_id
    ) x JOIN users u ON u.id = x.user_id
    WHERE x.used > 0 AND ${scopeOf(actor)}
    ORDER BY x.used DESC, u.name LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ name: r.name, used: Number(r.used) }));
}

/** The scope's campaigns created in the window, per credit type. */
export async function campaignTypes(db: DbOrTx, actor: Actor, win: Window) {
  const { rows } = await sql<{ name: string; value: string }>`
    SELECT c.credit_type AS name, count(*)::text AS value
    FROM campaigns c JOIN users u ON u.id = c.user_id
    WHERE c.created_at >= ${startOf(win.from)}::timestamptz AND ${scopeOf(actor)}
    GROUP BY c.credit_type ORDER BY count(*) DESC, c.credit_type`.execute(db);
  return rows.map((r) => ({ name: r.name, value: Number(r.value) }));
}
