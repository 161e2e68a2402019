import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { kyselyPool } from './kysely-pool.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** A repository function takes either the pool-backed handle or an open transaction. */
export type DbOrTx = Db | Tx;

export interface DatabaseHandle {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function openDatabase(url: string, poolMax: number): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    // Fail fast instead of hanging when the database is unreachable.
    connectionTimeoutMillis: 5000,
    statement_timeout: 60_000,
    lock_timeout: 10_000,
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  pool.on('connect', (client) => {
    // A checked-out client that loses its connection between queries emits 'error'; unheard,
    // that would end the process. Its next query fails and the caller handles that.
    client.on('error', () => {});
  });
  // kyselyPool: COPY FROM STDIN inside Kysely transactions, hot named statements.
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: kyselyPool(pool) }) });
  return {
    db,
    pool,
    async close() {
      // Kysely ends only a pool it used itself; migrate() uses the pool directly.
      await db.destroy();
      if (!pool.ended) await pool.end();
    },
  };
}

const MIGRATION_LOCK = 7_263_120;

/** Applies pending migrations, each in its own transaction, under an advisory lock. */
export async function migrate(pool: pg.Pool): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const have = new Set(done.rows.map((r) => r.version));
    for (const m of migrations) {
      if (have.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          m.version,
          m.name,
        ]);
        await client.query('COMMIT');
        applied.push(m.version);
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${m.version} (${m.name}) failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  return applied;
}
