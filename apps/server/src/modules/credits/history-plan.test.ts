import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';
import { historySql, type HistoryFilter, type HistoryScope } from './history.repo.js';

/**
 * Query plans of Transaction History on a ledger big enough for the planner to care
 * (HISTORY_PLAN_ROWS entries, default 200,000; docs/performance.md, credit ledger history, has
 * 3M): every page reads
 * an index range (ordered, or for a user's few rows a bitmap), never a sequential scan, in custom
 * and generic plans alike. HISTORY_PLAN_LOG=1 prints the plans. At 3M rows a reseller's page
 * runs in about 0.2 ms in its generic plan (viewer ids, then lookups by primary key), which a
 * named statement now settles on since the page size is in the statement's text.
 */
const ROWS = Number(process.env.HISTORY_PLAN_ROWS ?? 200_000);
const LOG = process.env.HISTORY_PLAN_LOG === '1';

let t: TestApp;
let admin = '';
let reseller = '';
let user = '';

beforeAll(async () => {
  t = await createTestApp();
  admin = (
    await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', ADMIN_EMAIL)
      .executeTakeFirstOrThrow()
  ).id;
  // 10 resellers × 10 sub-resellers × 20 users, made in SQL (no password hashing).
  await sql`
    WITH r AS (
      INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
      SELECT 'r' || i || '@plan.local', 'R ' || i, 'Reseller', 'x', ${admin}::uuid,
             ARRAY[${admin}::uuid] FROM generate_series(1, 10) i RETURNING id, ancestors, email),
    s AS (
      INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
      SELECT 's' || j || '.' || r.email, 'S ' || j, 'Sub-Reseller', 'x', r.id, r.ancestors || r.id
      FROM r, generate_series(1, 10) j RETURNING id, ancestors, email)
    INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
    SELECT 'u' || k || '.' || s.email, 'U ' || k, 'User', 'x', s.id, s.ancestors || s.id
    FROM s, generate_series(1, 20) k`.execute(t.db);
  // In batches: one statement must stay under the pool's statement timeout.
  for (let lo = 1; lo <= ROWS; lo += 250_000) {
    const hi = Math.min(ROWS, lo + 249_999);
    await sql`
    WITH pool AS (SELECT array_agg(id ORDER BY email) AS ids, count(*)::int AS n
                  FROM users WHERE role <> 'Admin')
    INSERT INTO credit_transactions (group_id, to_user_id, to_email, to_name, by_user_id,
      by_email, by_name, type, credit_type, count, rate_paise, total_paise, kind, created_at)
    SELECT gen_random_uuid(), u.id, u.email, u.name, p.id, p.email, p.name,
      CASE WHEN i % 5 = 0 THEN 'Removed' ELSE 'Added' END,
      (ARRAY['Normal Message - domestic', 'Normal Message - international', 'With DP - domestic',
        'With DP - international', 'With CTA - domestic', 'With CTA - international',
        'With DP & CTA - domestic', 'Own Number + DP + CTA'])[1 + i % 8],
      1 + i % 100, 10, 10 * (1 + i % 100), 'mint',
      now() - make_interval(secs => (${ROWS} - i) * 60.0)
    FROM pool CROSS JOIN generate_series(${lo}::int, ${hi}::int) i
    JOIN users u ON u.id = pool.ids[1 + ((i::bigint * 7919) % pool.n)::int]
    JOIN users p ON p.id = u.created_by
    ORDER BY i`.execute(t.db);
  }
  for (let lo = 0; lo < ROWS; lo += 250_000) {
    await sql`
      INSERT INTO credit_transaction_viewers (viewer_id, transaction_id)
      SELECT v.id, t.id FROM credit_transactions t JOIN users u ON u.id = t.to_user_id
      JOIN users v ON v.id = ANY(u.ancestors || u.id) AND v.role IN ('Reseller', 'Sub-Reseller')
      WHERE t.id > ${lo} AND t.id <= ${lo + 250_000}`.execute(t.db);
  }
  // As autovacuum leaves a ledger this size (an insert-only table is vacuumed after 20% growth):
  // statistics, and a visibility map that makes index-only scans worth planning.
  await sql`VACUUM (ANALYZE)`.execute(t.db);
  const pick = async (role: string) =>
    (
      await t.db
        .selectFrom('users')
        .select('id')
        .where('role', '=', role as 'User')
        .orderBy('email')
        .executeTakeFirstOrThrow()
    ).id;
  reseller = await pick('Reseller');
  user = await pick('User');
}, 600_000);
afterAll(() => t.close());

/**
 * `custom`: the plan of a first execution; `settled`: what a named statement runs after ten
 * executions (PostgreSQL then picks the generic plan if it is not dearer); `generic`: forced.
 */
type Mode = 'custom' | 'settled' | 'generic';

async function plan(scope: HistoryScope, filter: HistoryFilter, mode: Mode) {
  const { text, params } = historySql(scope.kind, filter);
  const value = (name: string): unknown =>
    ({
      scope: scope.kind === 'viewer' ? scope.viewerId : scope.kind === 'to' ? scope.userId : null,
      user: filter.userId,
      type: filter.type,
      creditType: filter.creditType,
      from: filter.from,
      until: filter.until,
      before: filter.before,
      limit: 50,
    })[name];
  const client = await t.app.ctx.pool.connect();
  try {
    const cacheMode = {
      custom: 'force_custom_plan',
      settled: 'auto',
      generic: 'force_generic_plan',
    };
    await client.query(`SET plan_cache_mode = ${cacheMode[mode]}`);
    await client.query(`PREPARE plan_q AS ${text}`);
    const args = params.map((n) =>
      client.escapeLiteral(
        String(value(n) instanceof Date ? (value(n) as Date).toISOString() : value(n)),
      ),
    );
    const execute = `EXECUTE plan_q${args.length ? `(${args.join(', ')})` : ''}`;
    if (mode === 'settled') for (let i = 0; i < 10; i++) await client.query(execute);
    const res = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${execute}`,
    );
    await client.query('DEALLOCATE plan_q');
    return res.rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.query('RESET plan_cache_mode');
    client.release();
  }
}

describe('history query plans', () => {
  const cases: [string, () => [HistoryScope, HistoryFilter], RegExp][] = [
    [
      'admin, no filter',
      () => [{ kind: 'all' }, {}],
      /Index Scan Backward using credit_transactions_pkey/,
    ],
    [
      'admin, deep cursor',
      () => [{ kind: 'all' }, { before: String(ROWS / 2) }],
      /Index Cond: \(id < /,
    ],
    [
      'admin + creditType',
      () => [{ kind: 'all' }, { creditType: 'With DP - domestic' }],
      /Index Only Scan Backward using credit_transactions_type_idx/,
    ],
    [
      'admin + creditType, deep cursor',
      () => [{ kind: 'all' }, { creditType: 'With DP - domestic', before: String(ROWS / 2) }],
      /Index Only Scan Backward using credit_transactions_type_idx[\s\S]*Index Cond: \(\(credit_type = [\s\S]*id < /,
    ],
    [
      'reseller via viewers',
      () => [{ kind: 'viewer', viewerId: reseller }, {}],
      /Index (Only )?Scan Backward using credit_transaction_viewers_pkey/,
    ],
    [
      // The page's 50 viewer rows, then each entry by primary key: a merge join would read
      // every entry between the newest and the cursor (about 20 per row of a reseller's).
      'reseller via viewers, deep cursor',
      () => [{ kind: 'viewer', viewerId: reseller }, { before: String(ROWS / 2) }],
      /Nested Loop[\s\S]*Index Only Scan Backward using credit_transaction_viewers_pkey[\s\S]*transaction_id < [\s\S]*Index Scan using credit_transactions_pkey[\s\S]*Index Cond: \(id = /,
    ],
    [
      'user via (to_user_id, id)',
      () => [{ kind: 'to', userId: user }, {}],
      /Index Scan Backward using credit_transactions_to_idx/,
    ],
    [
      'admin + userEmail',
      () => [{ kind: 'all' }, { userId: user }],
      /credit_transactions_to_idx[\s\S]*credit_transactions_by_idx/,
    ],
    [
      'reseller + userEmail + type',
      () => [
        { kind: 'viewer', viewerId: reseller },
        { userId: user, type: 'Removed' },
      ],
      /credit_transactions_to_idx[\s\S]*credit_transactions_by_idx/,
    ],
  ];
  it.each(cases)('%s: index scans only, in every plan mode', async (_name, make, shape) => {
    const [scope, filter] = make();
    for (const mode of ['custom', 'settled', 'generic'] as const) {
      const text = await plan(scope, filter, mode);
      if (LOG) console.log(`--- ${_name} (${mode})\n${text}`);
      expect(text).toMatch(shape);
      expect(text).not.toMatch(/Seq Scan/);
      // Parallel workers cost more to start than a 50-row page costs to read.
      if (mode !== 'generic') expect(text).not.toMatch(/Gather/);
    }
  });

  // Planning a reseller page took 0.1 ms of its 0.3 ms when every execution was planned again
  // (a generic plan with `LIMIT $n` is costed for a tenth of the table, so it never won).
  it('a named page statement settles on its generic plan: planned once, not per page', async () => {
    const filters: [HistoryScope, HistoryFilter][] = [
      [{ kind: 'all' }, {}],
      [{ kind: 'all' }, { before: String(ROWS / 2) }],
      [{ kind: 'all' }, { creditType: 'With DP - domestic', before: String(ROWS / 2) }],
      [{ kind: 'viewer', viewerId: reseller }, {}],
      [{ kind: 'viewer', viewerId: reseller }, { before: String(ROWS / 2) }],
      [{ kind: 'to', userId: user }, {}],
    ];
    const client = await t.app.ctx.pool.connect();
    try {
      for (const [k, [scope, filter]] of filters.entries()) {
        const { text, params } = historySql(scope.kind, filter);
        const scopeId = scope.kind === 'viewer' ? scope.viewerId : user;
        const values = params.map((n) => (n === 'scope' ? scopeId : { ...filter, user: '' }[n]));
        const name = `settle_${k}`;
        for (let i = 0; i < 10; i++) await client.query({ name, text, values });
        const { rows } = await client.query<{ generic_plans: string }>(
          `SELECT generic_plans FROM pg_prepared_statements WHERE name = $1`,
          [name],
        );
        expect(Number(rows[0]?.generic_plans), text).toBeGreaterThan(0);
      }
    } finally {
      client.release();
    }
  });

  it('a narrow old date range uses the created_at index, not a walk from the newest row', async () => {
    const day = new Date(Date.now() - (ROWS * 60_000) / 2);
    const filter = { from: day, until: new Date(day.getTime() + 3_600_000) };
    const text = await plan({ kind: 'all' }, filter, 'custom');
    if (LOG) console.log(`--- admin, one old hour\n${text}`);
    expect(text).toMatch(/credit_transactions_created_idx/);
  });
});
