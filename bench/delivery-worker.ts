// The delivery bench's database side, run by bench/delivery.mjs as `node --import tsx`
// over IPC: it owns an embedded PostgreSQL, so the database outlives an app server the bench
// kills with SIGKILL, creates the Admin and the campaigns' owner, and mints their tokens with
// whatever JWT secret the server started with. Every command answers { id, ok, result | error }.
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
let ids: { admin: string; user: string } | undefined;

const ADMIN_EMAIL = 'admin@delivery.bench';
const USER_EMAIL = 'owner@delivery.bench';

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new Error(`${what} is not ready (run setup first)`);
  return v;
}

/** PostgreSQL in `dir`, migrated, with one Admin and one User created by it (no passwords: tokens). */
async function setup(args: { dir: string }) {
  embedded = await startEmbeddedPostgres({ dataDir: args.dir });
  handle = openDatabase(embedded.url, 2);
  const { pool } = handle;
  await migrate(pool);
  const admin = await pool.query<{ id: string }>(
    `INSERT INTO users (email, name, role, password_hash)
     VALUES ($1, 'Bench Admin', 'Admin', 'x') RETURNING id`,
    [ADMIN_EMAIL],
  );
  const adminId = admin.rows[0]!.id;
  const user = await pool.query<{ id: string }>(
    `INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
     VALUES ($1, 'Bench Owner', 'User', 'x', $2, ARRAY[$2::uuid]) RETURNING id`,
    [USER_EMAIL, adminId],
  );
  ids = { admin: adminId, user: user.rows[0]!.id };
  return { url: embedded.url, adminEmail: ADMIN_EMAIL, userEmail: USER_EMAIL, ids };
}

/** Tokens of the Admin and the owner, signed with the running server's secret. */
function tokens({ secret }: { secret: string }) {
  const t = new TokenService(secret, TOKEN_TTL_SECONDS);
  const { admin, user } = need(ids, 'users');
  return { admin: t.issue(admin, 0), user: t.issue(user, 0) };
}

let stopping: Promise<void> | undefined;
function shutdown(): Promise<void> {
  stopping ??= (async () => {
    await handle?.close().catch(() => {});
    await embedded?.stop().catch(() => {});
  })();
  return stopping;
}

const commands: Record<string, (args: never) => unknown> = { setup, tokens };

serveCommands(commands, shutdown);
