import type { Readable } from 'node:stream';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/**
 * The backup's queries: its snapshot, each table's COPY, the column types and row counts, and
 * the database's size (storage.service.ts).
 */

/**
 * Starts the snapshot every table of a backup is read in: one REPEATABLE READ, READ ONLY
 * transaction. One COPY reads a whole table: millions of rows take longer than the pool's 60 s
 * limit on a statement, which is meant for requests; `statementTimeout` bounds it instead.
 */
export async function beginSnapshot(
  client: pg.ClientBase,
  statementTimeout: string,
): Promise<void> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  await client.query(`SET LOCAL statement_timeout = ${pg.escapeLiteral(statementTimeout)}`);
}

export async function endSnapshot(
  client: pg.ClientBase,
  how: 'COMMIT' | 'ROLLBACK',
): Promise<void> {
  await client.query(how);
}

/**
 * A `COPY ... TO STDOUT` through pg-copy-streams: the CopyData payloads as they come. It holds at
 * most `highWaterMark` bytes before it stops reading the connection.
 */
export function copyOut(client: pg.ClientBase, copySql: string, highWaterMark: number): Readable {
  return client.query(copyTo(copySql, { highWaterMark }));
}

/** PostgreSQL type names (information_schema data_type) of the public tables' columns. */
export async function columnTypes(
  client: pg.ClientBase,
): Promise<Map<string, Map<string, string>>> {
  const { rows } = await client.query<{ t: string; c: string; type: string }>(
    `SELECT table_name AS t, column_name AS c, data_type AS type
     FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  const out = new Map<string, Map<string, string>>();
  for (const r of rows) {
    let cols = out.get(r.t);
    if (!cols) out.set(r.t, (cols = new Map()));
    cols.set(r.c, r.type);
  }
  return out;
}

/** Rows expected per table: pg_class estimates for big tables, exact counts below SMALL_TABLE. */
export const SMALL_TABLE = 100_000;

export async function tableRowCounts(
  pool: pg.Pool,
  tables: readonly string[],
): Promise<{ name: string; count: number }[]> {
  const { rows } = await pool.query<{ name: string; estimate: number }>(
    `SELECT c.relname AS name,
       greatest(CASE WHEN c.reltuples >= 0 THEN c.reltuples
                     ELSE coalesce(s.n_live_tup, 0) END, 0)::float8 AS estimate
     FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
     WHERE c.relkind IN ('r', 'p') AND c.relname = ANY ($1::text[])`,
    [tables],
  );
  const estimates = new Map(rows.map((r) => [r.name, Math.round(r.estimate)]));
  const out: { name: string; count: number }[] = [];
  for (const name of tables) {
    const estimate = estimates.get(name);
    if (estimate === undefined) continue;
    if (estimate >= SMALL_TABLE) {
      out.push({ name, count: estimate });
      continue;
    }
    const exact = await pool.query<{ n: number }>(
      `SELECT count(*)::float8 AS n FROM ${pg.escapeIdentifier(name)}`,
    );
    out.push({ name, count: exact.rows[0]?.n ?? 0 });
  }
  return out;
}

/** The database's size in bytes. */
export async function databaseBytes(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ bytes: number }>(
    'SELECT pg_database_size(current_database())::float8 AS bytes',
  );
  return rows[0]?.bytes ?? 0;
}

/** The public tables the caller may read (the migrations' own table left out), by name. */
export async function publicTableNames(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> 'schema_migrations'
       AND has_table_privilege(c.oid, 'SELECT')
     ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}
