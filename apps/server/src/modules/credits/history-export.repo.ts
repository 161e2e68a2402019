import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';

/**
 * The history export's running count in PostgreSQL's rate_limits table (`hits` counts the
 * exports running under `key`), so instances sharing a database share it.
 */

/**
 * Counts one more running export in one statement, unless `atOnce` already run; answers whether
 * it did. Each start renews the row's lease: a count older than `leaseSeconds` (left by an
 * instance that crashed mid-export) starts again from 1.
 */
export async function takeRunningExport(
  db: DbOrTx,
  key: string,
  atOnce: number,
  leaseSeconds: number,
): Promise<boolean> {
  const stale = sql<boolean>`rate_limits.window_start < now() - make_interval(secs => ${leaseSeconds})`;
  const { rows } = await sql<{ hits: number }>`
    INSERT INTO rate_limits (key, hits, window_start) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN ${stale} THEN 1 ELSE rate_limits.hits + 1 END,
      window_start = now()
    WHERE ${stale} OR rate_limits.hits < ${atOnce}
    RETURNING hits`.execute(db);
  return rows.length > 0;
}

/** Counts one running export less (never below 0). */
export async function releaseRunningExport(db: DbOrTx, key: string): Promise<void> {
  await sql`
    UPDATE rate_limits SET hits = greatest(hits - 1, 0) WHERE key = ${key}`.execute(db);
}
