// The credit-ledger bench's database side (docs/performance.md), run by bench/ledger.mjs
// as `node --import tsx` over IPC: it owns the embedded PostgreSQL, loads the 3M-entry ledger,
// and runs the debit clients through the service layer (ledger.service) and bare (the same
// statements on a pg pool). Every command answers { id, ok, result | error }.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { CREDIT_TYPES, TOKEN_TTL_SECONDS, type CreditType } from '@herald/contract';
import { migrate, openDatabase, type DatabaseHandle } from '../apps/server/src/db/database.js';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from '../apps/server/src/db/embedded-postgres.js';
import type { Database } from '../apps/server/src/db/schema.js';
import { AppError } from '../apps/server/src/lib/app-error.js';
import { TokenService } from '../apps/server/src/lib/tokens.js';
import * as ledger from '../apps/server/src/modules/credits/ledger.service.js';
import { serveCommands } from './worker-ipc.js';

const DOMAIN = 'ledger.bench';
/** Users other than the Admin: 20 Resellers, 80 Sub-Resellers, 899 Users. */
const PICKABLE = 999;
/** Consecutive entries go to users this far apart in the pick order (prime to PICKABLE). */
const STRIDE = 7919;
const ROW_SECONDS = 20;

let embedded: EmbeddedPostgres | undefined;
let handle: DatabaseHandle | undefined;
let bare: DatabaseHandle | undefined;

interface Account {
  userId: string;
  email: string;
  creditType: CreditType;
}

interface State {
  url: string;
  adminId: string;
  adminEmail: string;
  resellerId: string;
  subId: string;
  accounts: Account[];
}
let state: State | undefined;

const log = (line: string) => console.log(line);
const secs = (t0: number) => (performance.now() - t0) / 1000;
const fmt = (n: number) => n.toLocaleString('en-US');

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new Error(`${what} is not ready (run setup first)`);
  return v;
}

// ---- setup: database, users, 3M entries

/**
 * Keys, foreign keys and indexes of the ledger tables, read from the catalog after migrating,
 * so the load can drop them and build them back exactly as the migration made them: every
 * index by its own definition (two at a time), then the keys on top of their indexes, then the
 * foreign keys, which validate the loaded rows.
 */
async function ledgerDdl(c: pg.PoolClient) {
  const tables = ['credit_transactions', 'credit_transaction_viewers'];
  const cons = await c.query<{ tbl: string; name: string; type: string; def: string }>(
    `SELECT conrelid::regclass::text AS tbl, conname AS name, contype AS type,
            pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE conrelid = ANY($1::regclass[]) AND contype IN ('p', 'u', 'f')
      ORDER BY conname`,
    [tables],
  );
  const idx = await c.query<{ name: string; def: string; con: string | null }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def,
            (SELECT conname FROM pg_constraint c WHERE c.conindid = i.indexrelid
                AND c.contype IN ('p', 'u')) AS con
       FROM pg_index i WHERE i.indrelid = ANY($1::regclass[]) ORDER BY 1`,
    [tables],
  );
  const fks = cons.rows.filter((r) => r.type === 'f');
  const keys = cons.rows.filter((r) => r.type !== 'f');
  for (const k of keys) {
    if (!idx.rows.some((i) => i.con === k.name && i.name.endsWith(k.name))) {
      throw new Error(`the index of ${k.name} is not named after it`);
    }
  }
  const kind = (type: string) => (type === 'p' ? 'PRIMARY KEY' : 'UNIQUE');
  return {
    drop: [
      ...fks.map((r) => `ALTER TABLE ${r.tbl} DROP CONSTRAINT ${r.name}`),
      ...keys.map((r) => `ALTER TABLE ${r.tbl} DROP CONSTRAINT ${r.name}`),
      ...idx.rows.filter((i) => !i.con).map((i) => `DROP INDEX ${i.name}`),
    ],
    indexes: idx.rows.map((i) => i.def),
    keys: keys.map(
      (r) => `ALTER TABLE ${r.tbl} ADD CONSTRAINT ${r.name} ${kind(r.type)} USING INDEX ${r.name}`,
    ),
    fks: fks.map((r) => `ALTER TABLE ${r.tbl} ADD CONSTRAINT ${r.name} ${r.def}`),
  };
}

const USERS_SQL = /* sql */ `
WITH a AS (
  INSERT INTO users (email, name, role, password_hash)
  VALUES ('admin@${DOMAIN}', 'Bench Admin', 'Admin', 'x') RETURNING id
), r AS (
  INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
  SELECT 'reseller' || i || '@${DOMAIN}', 'Reseller ' || i, 'Reseller', 'x', a.id, ARRAY[a.id]
  FROM a, generate_series(1, 20) i
  RETURNING id, ancestors, email, name
), s AS (
  INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
  SELECT 'sub' || j || '.' || r.email, 'Sub ' || j || ' of ' || r.name, 'Sub-Reseller', 'x',
         r.id, r.ancestors || r.id
  FROM r, generate_series(1, 4) j
  RETURNING id, ancestors, email, name
), us AS (
  INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
  SELECT 'user' || k || '.' || s.email, 'User ' || k || ' of ' || s.name, 'User', 'x',
         s.id, s.ancestors || s.id
  FROM s, generate_series(1, 10) k
  RETURNING id
), ur AS (
  INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
  SELECT 'user' || k || '.' || r.email, 'User ' || k || ' of ' || r.name, 'User', 'x',
         r.id, r.ancestors || r.id
  FROM r, generate_series(1, 5) k
  WHERE NOT (r.email = 'reseller20@${DOMAIN}' AND k = 5)
  RETURNING id
)
SELECT (SELECT count(*) FROM r) + (SELECT count(*) FROM s) + (SELECT count(*) FROM us)
     + (SELECT count(*) FROM ur) + 1 AS n`;

/**
 * Who gets entry i: bench_pick row (i * STRIDE) % PICKABLE, with its creator; bench_view: the
 * Resellers and Sub-Resellers who see an entry on that user (itself and its ancestors; the
 * entry's "by" is the user or its creator, so it adds no one).
 */
const PICK_SQL = /* sql */ `
CREATE UNLOGGED TABLE bench_pick AS
SELECT (row_number() OVER (ORDER BY u.email) - 1)::int AS n, u.id, u.email, u.name, u.role,
       p.id AS pid, p.email AS pemail, p.name AS pname, p.role AS prole
FROM users u JOIN users p ON p.id = u.created_by;
CREATE UNLOGGED TABLE bench_view AS
SELECT b.n, v.id AS viewer
FROM bench_pick b JOIN users u ON u.id = b.id
JOIN users v ON v.id = ANY (u.ancestors || u.id) AND v.role IN ('Reseller', 'Sub-Reseller');
ANALYZE bench_pick; ANALYZE bench_view`;

/**
 * Entries lo..hi (ids = i, oldest first, one every ROW_SECONDS up to now). A fifth are Removed,
 * 1-20 credits against 20-119 Added, so every balance stays well above zero. Credit types cycle
 * per pass over the users, so each (user, type) holds about N / 8,000 entries.
 */
const ENTRIES_SQL = /* sql */ `
INSERT INTO credit_transactions (id, group_id, to_user_id, to_email, to_name, by_user_id,
  by_email, by_name, type, credit_type, count, rate_paise, total_paise, reason, kind,
  campaign_id, created_at)
OVERRIDING SYSTEM VALUE
SELECT g.i, gen_random_uuid(), g.id, g.email, g.name,
  CASE WHEN g.self THEN g.id ELSE g.pid END,
  CASE WHEN g.self THEN g.email ELSE g.pemail END,
  CASE WHEN g.self THEN g.name ELSE g.pname END,
  CASE WHEN g.rm THEN 'Removed' ELSE 'Added' END,
  ($4::text[])[1 + ((g.i / ${PICKABLE}) % 8)::int],
  g.cnt,
  CASE WHEN g.self THEN NULL ELSE 10 + g.h % 90 END,
  CASE WHEN g.self THEN NULL ELSE g.cnt * (10 + g.h % 90) END,
  NULL,
  CASE WHEN g.self THEN 'campaign_debit'
       WHEN g.rm AND g.prole = 'Admin' THEN 'burn'
       WHEN g.rm THEN 'transfer_out'
       WHEN g.prole = 'Admin' THEN 'mint'
       ELSE 'transfer_in' END,
  NULL,
  $3::timestamptz + make_interval(secs => g.i * ${ROW_SECONDS})
FROM (
  SELECT y.*, y.rm AND y.h % 2 = 0 AND y.role = 'User' AS self,
         CASE WHEN y.rm THEN 1 + y.h % 20 ELSE 20 + y.h % 100 END AS cnt
  FROM (
    SELECT x.*, x.hh / 5 AS h, x.hh % 5 = 0 AS rm
    FROM (
      SELECT s.i, b.id, b.email, b.name, b.role, b.pid, b.pemail, b.pname, b.prole,
             hashint4(s.i::int) & 2147483647 AS hh
      FROM generate_series($1::bigint, $2::bigint) s(i)
      JOIN bench_pick b ON b.n = (s.i * ${STRIDE}) % ${PICKABLE}
    ) x
  ) y
) g`;

const VIEWERS_SQL = /* sql */ `
INSERT INTO credit_transaction_viewers (viewer_id, transaction_id)
SELECT v.viewer, s.i
FROM generate_series($1::bigint, $2::bigint) s(i)
JOIN bench_view v ON v.n = (s.i * ${STRIDE}) % ${PICKABLE}`;

const BALANCES_SQL = /* sql */ `
INSERT INTO credit_balances (user_id, credit_type, balance, total_added, total_removed)
SELECT to_user_id, credit_type,
       sum(CASE WHEN type = 'Added' THEN count ELSE -count END),
       coalesce(sum(count) FILTER (WHERE type = 'Added'), 0),
       coalesce(sum(count) FILTER (WHERE type = 'Removed'), 0)
FROM credit_transactions GROUP BY 1, 2`;

/** Balances that differ from Σ Added − Σ Removed of their entries (or entries without one). */
const RECONCILE_SQL = /* sql */ `
SELECT count(*)::int AS mismatches, (SELECT count(*)::int FROM credit_balances) AS balances,
       (SELECT count(*)::int FROM credit_balances WHERE balance < 0) AS negative
FROM credit_balances b
FULL JOIN (
  SELECT to_user_id, credit_type,
         sum(count) FILTER (WHERE type = 'Added') AS added,
         sum(count) FILTER (WHERE type = 'Removed') AS removed
  FROM credit_transactions GROUP BY 1, 2
) e ON e.to_user_id = b.user_id AND e.credit_type = b.credit_type
WHERE b.balance IS DISTINCT FROM coalesce(e.added, 0) - coalesce(e.removed, 0)
   OR b.total_added IS DISTINCT FROM coalesce(e.added, 0)
   OR b.total_removed IS DISTINCT FROM coalesce(e.removed, 0)`;

/** Runs `work` on `lanes` connections at once, each taking the next item of `items`. */
async function lanes<T>(
  pool: pg.Pool,
  n: number,
  items: T[],
  work: (c: pg.PoolClient, item: T) => Promise<void>,
) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: n }, async () => {
      const c = await pool.connect();
      try {
        await c.query(`SET maintenance_work_mem = '512MB'; SET max_parallel_maintenance_workers = 0;
                       SET synchronous_commit = off`);
        for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
          await work(c, item);
        }
      } finally {
        c.release();
      }
    }),
  );
}

async function setup({ dir, rows }: { dir: string; rows: number }) {
  const t0 = performance.now();
  embedded = await startEmbeddedPostgres({ dataDir: dir });
  const url = embedded.url;
  // A pool of its own: its sessions are tuned for bulk loading, then closed.
  const load = openDatabase(url, 3);
  try {
    return await loadLedger(url, load.pool, rows, t0);
  } finally {
    await load.close();
  }
}

async function loadLedger(url: string, pool: pg.Pool, rows: number, started: number) {
  let t0 = started;
  await migrate(pool);
  const timings: Record<string, number> = { start: secs(t0) };
  log(`PostgreSQL started and migrated in ${timings.start!.toFixed(1)} s`);

  t0 = performance.now();
  const c = await pool.connect();
  let ddl;
  try {
    // A bigger WAL budget while loading: no forced checkpoints mid-load. Reset afterwards.
    await c.query(`ALTER SYSTEM SET max_wal_size = '8GB'`);
    await c.query('SELECT pg_reload_conf()');
    const users = await c.query<{ n: string }>(USERS_SQL);
    await c.query(PICK_SQL);
    ddl = await ledgerDdl(c);
    for (const q of ddl.drop) await c.query(q);
    log(`${users.rows[0]!.n} users; ledger keys and indexes dropped for the load`);
  } finally {
    c.release();
  }
  const start = new Date(Date.now() - (rows + 1) * ROW_SECONDS * 1000).toISOString();
  // Chunks of 250k rows on two connections (one per core): ids are given, so order is kept.
  const chunk = 250_000;
  const ranges: [number, number][] = [];
  for (let lo = 1; lo <= rows; lo += chunk) ranges.push([lo, Math.min(rows, lo + chunk - 1)]);
  await lanes(pool, 2, ranges, async (cl, [lo, hi]) => {
    await cl.query(ENTRIES_SQL, [lo, hi, start, CREDIT_TYPES]);
    await cl.query(VIEWERS_SQL, [lo, hi]);
  });
  timings.rows = secs(t0);
  log(`${fmt(rows)} entries and their viewer rows inserted in ${timings.rows.toFixed(1)} s`);

  t0 = performance.now();
  const run = (cl: pg.PoolClient, q: string) => cl.query(q).then(() => {});
  await lanes(pool, 2, [...ddl.indexes, BALANCES_SQL], run);
  for (const q of ddl.keys) await pool.query(q);
  await lanes(pool, 2, ddl.fks, run);
  await pool.query(
    `SELECT setval(pg_get_serial_sequence('credit_transactions', 'id'), max(id))
       FROM credit_transactions`,
  );
  timings.indexes = secs(t0);
  log(
    `balances, ${ddl.indexes.length} indexes, ${ddl.keys.length} keys and ${ddl.fks.length} foreign keys (validated) in ${timings.indexes.toFixed(1)} s`,
  );

  t0 = performance.now();
  await pool.query('DROP TABLE bench_pick, bench_view');
  await lanes(
    pool,
    2,
    ['credit_transactions', 'credit_transaction_viewers', 'credit_balances, users'],
    (cl, t) => cl.query(`VACUUM (ANALYZE) ${t}`).then(() => {}),
  );
  await pool.query(`ALTER SYSTEM RESET max_wal_size`);
  await pool.query('SELECT pg_reload_conf()');
  await pool.query('CHECKPOINT');
  timings.vacuum = secs(t0);
  log(`VACUUM (ANALYZE) and CHECKPOINT in ${timings.vacuum.toFixed(1)} s`);

  t0 = performance.now();
  const rec = (
    await pool.query<{ mismatches: number; balances: number; negative: number }>(RECONCILE_SQL)
  ).rows[0]!;
  timings.reconcile = secs(t0);
  const counts = (
    await pool.query<{ entries: string; viewers: string; max: string; size: string }>(
      `SELECT (SELECT count(*) FROM credit_transactions) AS entries,
              (SELECT count(*) FROM credit_transaction_viewers) AS viewers,
              (SELECT max(id) FROM credit_transactions) AS max,
              pg_size_pretty(pg_database_size(current_database())) AS size`,
    )
  ).rows[0]!;
  log(
    `loaded: ${fmt(Number(counts.entries))} entries, ${fmt(Number(counts.viewers))} viewer rows, ${fmt(rec.balances)} balances, database ${counts.size}; reconciliation ${rec.mismatches} mismatches, ${rec.negative} negative (${timings.reconcile.toFixed(1)} s)`,
  );

  const admin = await pool.query<{ id: string; email: string }>(
    `SELECT id, email FROM users WHERE role = 'Admin'`,
  );
  const idOf = async (email: string) =>
    (await pool.query<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [email])).rows[0]!
      .id;
  const accounts = await pool.query<{ user_id: string; email: string; credit_type: CreditType }>(
    `SELECT b.user_id, u.email, b.credit_type FROM credit_balances b
       JOIN users u ON u.id = b.user_id ORDER BY u.email, b.credit_type`,
  );
  state = {
    url,
    adminId: admin.rows[0]!.id,
    adminEmail: admin.rows[0]!.email,
    resellerId: await idOf(`reseller1@${DOMAIN}`),
    subId: await idOf(`sub1.reseller1@${DOMAIN}`),
    accounts: accounts.rows.map((r) => ({
      userId: r.user_id,
      email: r.email,
      creditType: r.credit_type,
    })),
  };
  return {
    url,
    timings,
    entries: Number(counts.entries),
    viewers: Number(counts.viewers),
    maxId: counts.max,
    size: counts.size,
    reconcile: rec,
    adminEmail: state.adminEmail,
    accounts: state.accounts.length,
  };
}

// ---- debits: the service layer against the same statements run bare

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Stats {
  ok: number;
  rejected: number;
  errors: number;
  seconds: number;
  rate: number;
  p50: number;
  p99: number;
  firstError?: string;
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/**
 * `clients` loops call `op` back to back for `warmup` + `seconds`; only the calls that end in
 * the measured window count. `op` resolves true when committed, false when refused (409).
 */
async function timed(
  clients: number,
  seconds: number,
  warmup: number,
  op: (client: number) => Promise<boolean>,
): Promise<Stats> {
  let measuring = false;
  let stop = false;
  const lat: number[] = [];
  let ok = 0;
  let rejected = 0;
  let errors = 0;
  let firstError: string | undefined;
  const loop = async (k: number) => {
    while (!stop) {
      const t = performance.now();
      try {
        const done = await op(k);
        if (!measuring) continue;
        lat.push(performance.now() - t);
        if (done) ok++;
        else rejected++;
      } catch (err) {
        if (measuring) errors++;
        firstError ??= err instanceof Error ? err.message : String(err);
        await sleep(10);
      }
    }
  };
  const loops = Array.from({ length: clients }, (_, k) => loop(k));
  await sleep(warmup * 1000);
  measuring = true;
  const t0 = performance.now();
  await sleep(seconds * 1000);
  measuring = false;
  const elapsed = secs(t0);
  stop = true;
  await Promise.all(loops);
  const sorted = Float64Array.from(lat).sort();
  return {
    ok,
    rejected,
    errors,
    seconds: elapsed,
    rate: ok / elapsed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    ...(firstError ? { firstError } : {}),
  };
}

function burn(a: Account, count: number, groupId?: string): ledger.DebitMove {
  const adminId = need(state, 'state').adminId;
  return {
    userId: a.userId,
    creditType: a.creditType,
    count,
    actor: { id: adminId },
    reason: null,
    kind: 'burn',
    ...(groupId ? { groupId } : {}),
  };
}

/** One debit through ledger.service in its own transaction, as a route calls it. */
async function serviceDebit(a: Account, count: number): Promise<boolean> {
  const h = need(handle, 'database');
  try {
    await h.db.transaction().execute((tx) => ledger.debit(tx, burn(a, count)));
    return true;
  } catch (err) {
    if (err instanceof AppError && err.status === 409) return false;
    throw err;
  }
}

type Slot = 'user' | 'type' | 'count' | 'group';
interface Statement {
  text: string;
  params: ({ slot: Slot } | { value: unknown })[];
}
let statements: Statement[] | undefined;

/**
 * The statements ledger.service.debit sends, captured from Kysely's query log on one real
 * debit, with each parameter tied back to the move's field by a sentinel value. The bare
 * reference replays exactly these texts, so it cannot drift from the repository's SQL.
 */
async function captureDebit(): Promise<Statement[]> {
  const h = need(handle, 'database');
  const a = need(state, 'state').accounts[0]!;
  const seen: { sql: string; parameters: readonly unknown[] }[] = [];
  const spy = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: h.pool }),
    log: (e) => {
      if (e.level === 'query') seen.push({ sql: e.query.sql, parameters: e.query.parameters });
    },
  });
  const groupId = randomUUID();
  const count = 3;
  await spy.transaction().execute((tx) => ledger.debit(tx, burn(a, count, groupId)));
  const slots = new Map<unknown, Slot>([
    [a.userId, 'user'],
    [a.creditType, 'type'],
    [count, 'count'],
    [groupId, 'group'],
  ]);
  const out = seen
    .filter((q) => !/^\s*(begin|commit|rollback)\b/i.test(q.sql))
    .map((q) => ({
      text: q.sql,
      params: q.parameters.map((p) => {
        const slot = slots.get(p);
        return slot ? { slot } : { value: p };
      }),
    }));
  if (!/^\s*update credit_balances/i.test(out[0]?.text ?? '')) {
    throw new Error(`unexpected first statement of a debit: ${out[0]?.text ?? 'none'}`);
  }
  return out;
}

/**
 * The same statements as the service, bare on a pg pool: begin, update, (insert), commit.
 * `named`: as named prepared statements, parsed and planned once per connection (info only).
 */
async function bareDebit(a: Account, count: number, named = false): Promise<boolean> {
  const sts = need(statements, 'captured statements');
  const c = await need(bare, 'bare pool').pool.connect();
  const groupId = randomUUID();
  const values = { user: a.userId, type: a.creditType, count, group: groupId };
  try {
    await c.query('begin');
    for (const [i, st] of sts.entries()) {
      const params = st.params.map((p) => ('slot' in p ? values[p.slot] : p.value));
      const res = named
        ? await c.query({ name: `bench_debit_${i}`, text: st.text, values: params })
        : await c.query(st.text, params);
      if (i === 0 && res.rows.length === 0) {
        await c.query('rollback');
        return false;
      }
    }
    await c.query('commit');
    return true;
  } catch (err) {
    await c.query('rollback').catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}

function hotAccount(): Account {
  const s = need(state, 'state');
  const a = s.accounts.find(
    (x) => x.email === `user1.sub1.reseller1@${DOMAIN}` && x.creditType === CREDIT_TYPES[0],
  );
  if (!a) throw new Error('the hot account is missing');
  return a;
}

async function debits(args: {
  mode: 'service' | 'bare' | 'prepared';
  target: 'many' | 'hot';
  clients: number;
  seconds: number;
  warmup: number;
}) {
  const s = need(state, 'state');
  statements ??= await captureDebit();
  await need(handle, 'database').pool.query('CHECKPOINT');
  const hot = hotAccount();
  const pick = () =>
    args.target === 'hot' ? hot : s.accounts[Math.floor(Math.random() * s.accounts.length)]!;
  const run =
    args.mode === 'service'
      ? serviceDebit
      : (a: Account, n: number) => bareDebit(a, n, args.mode === 'prepared');
  return timed(args.clients, args.seconds, args.warmup, () => run(pick(), 1));
}

/** Gives the hot account enough credits for every run, through the ledger. */
async function topUp({ count }: { count: number }) {
  const s = need(state, 'state');
  const a = hotAccount();
  const res = await need(handle, 'database')
    .db.transaction()
    .execute((tx) =>
      ledger.credit(tx, {
        userId: a.userId,
        creditType: a.creditType,
        count,
        actor: { id: s.adminId },
        reason: 'bench top-up',
        kind: 'mint',
      }),
    );
  return { email: a.email, creditType: a.creditType, balance: res.balance };
}

// ---- the storm: set a few balances, then check the ledger after the HTTP clients ran

async function stormPrepare({ accounts, total }: { accounts: number; total: number }) {
  const s = need(state, 'state');
  const h = need(handle, 'database');
  const type = CREDIT_TYPES[2];
  const chosen = s.accounts
    .filter((a) => a.creditType === type && a.email.startsWith('user2.'))
    .slice(0, accounts);
  const each = Math.max(1, Math.floor(total / chosen.length));
  for (const a of chosen) {
    await h.db.transaction().execute(async (tx) => {
      const row = await tx
        .selectFrom('credit_balances')
        .select('balance')
        .where('user_id', '=', a.userId)
        .where('credit_type', '=', a.creditType)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const diff = each - Number(row.balance);
      const move = {
        userId: a.userId,
        creditType: a.creditType,
        actor: { id: s.adminId },
        reason: 'storm setup',
      };
      if (diff > 0) await ledger.credit(tx, { ...move, count: diff, kind: 'mint' });
      if (diff < 0) await ledger.debit(tx, { ...move, count: -diff, kind: 'burn' });
    });
  }
  const maxId = (
    await h.pool.query<{ max: string }>('SELECT max(id) AS max FROM credit_transactions')
  ).rows[0]!.max;
  return {
    accounts: chosen.map((a) => ({ email: a.email, creditType: a.creditType })),
    each,
    available: each * chosen.length,
    maxId,
  };
}

async function stormCheck(args: {
  keys: string[];
  maxId: string;
  accounts: { email: string; creditType: CreditType }[];
}) {
  const pool = need(handle, 'database').pool;
  let t0 = performance.now();
  const rec = (
    await pool.query<{ mismatches: number; balances: number; negative: number }>(RECONCILE_SQL)
  ).rows[0]!;
  const reconcileSeconds = secs(t0);
  t0 = performance.now();
  const once = (
    await pool.query<{
      entries: number;
      distinct_keys: number;
      removed: string;
      missing: number;
      phantom: number;
    }>(
      `WITH e AS (SELECT reason, count FROM credit_transactions
                   WHERE id > $2::bigint AND reason LIKE 'storm-%'),
            k AS (SELECT DISTINCT key FROM unnest($1::text[]) key)
       SELECT (SELECT count(*)::int FROM e) AS entries,
              (SELECT count(DISTINCT reason)::int FROM e) AS distinct_keys,
              (SELECT coalesce(sum(count), 0) FROM e) AS removed,
              (SELECT count(*)::int FROM k LEFT JOIN e ON e.reason = k.key
                WHERE e.reason IS NULL) AS missing,
              (SELECT count(*)::int FROM e LEFT JOIN k ON k.key = e.reason
                WHERE k.key IS NULL) AS phantom`,
      [args.keys, args.maxId],
    )
  ).rows[0]!;
  const left = (
    await pool.query<{ sum: string; min: string }>(
      `SELECT coalesce(sum(b.balance), 0) AS sum, min(b.balance) AS min
         FROM credit_balances b JOIN users u ON u.id = b.user_id
         JOIN unnest($1::text[], $2::text[]) a(email, type)
           ON a.email = u.email AND a.type = b.credit_type`,
      [args.accounts.map((a) => a.email), args.accounts.map((a) => a.creditType)],
    )
  ).rows[0]!;
  return {
    ...rec,
    reconcileSeconds,
    ...once,
    removed: Number(once.removed),
    duplicates: once.entries - once.distinct_keys,
    left: Number(left.sum),
    minLeft: Number(left.min),
    checkSeconds: secs(t0),
  };
}

// ---- the rest

function tokens({ secret }: { secret: string }) {
  const s = need(state, 'state');
  const t = new TokenService(secret, TOKEN_TTL_SECONDS);
  return {
    admin: t.issue(s.adminId, 0),
    reseller: t.issue(s.resellerId, 0),
    sub: t.issue(s.subId, 0),
  };
}

/** The history viewers' own ids: each reads its own profile as the one-row reference. */
function viewerIds() {
  const s = need(state, 'state');
  return { admin: s.adminId, reseller: s.resellerId, sub: s.subId };
}

/** How many entries each history case sees above `cursor`: how deep its page is. */
async function depths({ cursor, creditType }: { cursor: string; creditType: CreditType }) {
  const s = need(state, 'state');
  const r = await need(handle, 'database').pool.query<{
    all: number;
    type: number;
    reseller: number;
    sub: number;
  }>(
    `SELECT (SELECT count(*)::int FROM credit_transactions WHERE id >= $1) AS all,
            (SELECT count(*)::int FROM credit_transactions
              WHERE id >= $1 AND credit_type = $2) AS type,
            (SELECT count(*)::int FROM credit_transaction_viewers
              WHERE viewer_id = $3 AND transaction_id >= $1) AS reseller,
            (SELECT count(*)::int FROM credit_transaction_viewers
              WHERE viewer_id = $4 AND transaction_id >= $1) AS sub`,
    [cursor, creditType, s.resellerId, s.subId],
  );
  return r.rows[0]!;
}

/** Users with a balance of the many-accounts set, for the HTTP clients. */
function accounts() {
  return need(state, 'state').accounts.map((a) => ({ email: a.email, creditType: a.creditType }));
}

let stopping: Promise<void> | undefined;
function shutdown(): Promise<void> {
  stopping ??= (async () => {
    await handle?.close().catch(() => {});
    await bare?.close().catch(() => {});
    await embedded?.stop().catch(() => {});
  })();
  return stopping;
}

async function openClients() {
  const url = need(state, 'state').url;
  handle = openDatabase(url, 8);
  bare = openDatabase(url, 8);
  // Open the connections before any run, so neither side pays for them.
  await Promise.all(
    [handle, bare].map((h) =>
      Promise.all(Array.from({ length: 8 }, () => h.pool.query('SELECT 1'))),
    ),
  );
}

const commands: Record<string, (args: never) => unknown> = {
  setup: async (args: { dir: string; rows: number }) => {
    const out = await setup(args);
    await openClients();
    return out;
  },
  tokens,
  viewerIds,
  accounts,
  depths,
  debits,
  topUp,
  stormPrepare,
  stormCheck,
};

serveCommands(commands, shutdown);
