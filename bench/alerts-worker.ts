// The alerts bench's database side, run by bench/alerts.mjs as `node --import tsx`
// over IPC: it owns an embedded PostgreSQL, loads 10,000 users with 1,000,000 notifications,
// issues tokens, and posts a broadcast announcement. Every command answers { id, ok, result | error }.
import { performance } from 'node:perf_hooks';
import { TOKEN_TTL_SECONDS } from '@herald/contract';
import { migrate, openDatabase, type DatabaseHandle } from '../apps/server/src/db/database.js';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from '../apps/server/src/db/embedded-postgres.js';
import { TokenService } from '../apps/server/src/lib/tokens.js';
import { serveCommands } from './worker-ipc.js';

let embedded: EmbeddedPostgres | undefined;
let handle: DatabaseHandle | undefined;
let userIds: string[] = [];

const secs = (t0: number) => (performance.now() - t0) / 1000;

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new Error(`${what} is not ready (run setup first)`);
  return v;
}

/**
 * `users` Users (created by one Admin) and `rows` notifications spread evenly over them,
 * newest first by seq, one in `unreadEvery` of each user's unread; then VACUUM ANALYZE, as a live table is.
 */
async function setup(args: { dir: string; users: number; rows: number; unreadEvery: number }) {
  const t0 = performance.now();
  embedded = await startEmbeddedPostgres({ dataDir: args.dir });
  handle = openDatabase(embedded.url, 3);
  const { pool } = handle;
  await migrate(pool);
  const timings: Record<string, number> = { start: secs(t0) };
  let t = performance.now();
  // No real password: the bench issues tokens with the server's secret instead of logging in.
  await pool.query(`INSERT INTO users (email, name, role, password_hash)
    VALUES ('admin@alerts.bench', 'Admin', 'Admin', 'x')`);
  await pool.query(
    `INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
     SELECT 'user' || g || '@alerts.bench', 'User ' || g, 'User', 'x', a.id, ARRAY[a.id]
       FROM generate_series(1, $1::int) g, (SELECT id FROM users WHERE role = 'Admin') a`,
    [args.users],
  );
  const ids = await pool.query<{ id: string }>(
    `SELECT id FROM users WHERE role = 'User' ORDER BY email`,
  );
  userIds = ids.rows.map((r) => r.id);
  timings.users = secs(t);
  t = performance.now();
  // In slices, so each statement's NOTIFY (one per user) and transition table stay small.
  const slice = 100_000;
  for (let from = 0; from < args.rows; from += slice) {
    await pool.query(
      `INSERT INTO notifications (user_id, event_type, message, link, created_at, read_at)
       SELECT u.ids[1 + g % array_length(u.ids, 1)], 'credits',
              'Bench notification ' || g || ': 5 Normal Message - domestic credits were added.',
              '/history', now() - make_interval(secs => $3::int - g),
              -- Each user's k-th notification (k = g / users) is unread when k % unreadEvery = 0.
              CASE WHEN (g / $5::int) % $4::int = 0 THEN NULL ELSE now() END
         FROM generate_series($1::int, $2::int) g,
              (SELECT array_agg(id ORDER BY email) AS ids FROM users WHERE role = 'User') u`,
      [from + 1, Math.min(from + slice, args.rows), args.rows, args.unreadEvery, userIds.length],
    );
  }
  timings.rows = secs(t);
  t = performance.now();
  await pool.query('VACUUM ANALYZE users');
  await pool.query('VACUUM ANALYZE notifications');
  timings.vacuum = secs(t);
  const unread = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL`,
    [userIds[0]],
  );
  const all = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM notifications WHERE user_id = $1`,
    [userIds[0]],
  );
  return {
    url: embedded.url,
    users: userIds.length,
    rows: args.rows,
    timings,
    probe: { id: userIds[0], unread: unread.rows[0]!.n, all: all.rows[0]!.n },
  };
}

/** Tokens for the first `count` users (the probe user is the first), signed with the server's secret. */
function tokens({ secret, count }: { secret: string; count: number }) {
  const t = new TokenService(secret, TOKEN_TTL_SECONDS);
  return userIds.slice(0, count).map((id) => ({ id, token: t.issue(id, 0) }));
}

/** An announcement for everyone: one NOTIFY that every open stream must hear. */
async function broadcast() {
  await need(handle, 'database').pool.query(
    `INSERT INTO announcements (title, message, visibility_type) VALUES ('Bench', 'Hello all', 'all')`,
  );
}

let stopping: Promise<void> | undefined;
function shutdown(): Promise<void> {
  stopping ??= (async () => {
    await handle?.close().catch(() => {});
    await embedded?.stop().catch(() => {});
  })();
  return stopping;
}

const commands: Record<string, (args: never) => unknown> = { setup, tokens, broadcast };

serveCommands(commands, shutdown);
