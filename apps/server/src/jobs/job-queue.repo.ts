import { sql } from 'kysely';
import type pg from 'pg';
import type { DbOrTx } from '../db/database.js';
import type { JobSpec, TaskName } from './job-queue.js';

/** The job queue's statements: graphile-worker's own SQL functions, called by the app. */

/**
 * Adds a job through graphile-worker's SQL function rather than its client API, so that inside
 * a transaction the job commits or rolls back with the change that asked for it.
 */
export async function addJob(
  db: DbOrTx,
  task: TaskName,
  payload: Record<string, unknown>,
  spec: JobSpec = {},
): Promise<void> {
  await sql`SELECT graphile_worker.add_job(
    ${task},
    ${JSON.stringify(payload)}::json,
    run_at => ${spec.runAt?.toISOString() ?? null}::timestamptz,
    max_attempts => ${spec.maxAttempts ?? null}::integer,
    job_key => ${spec.jobKey ?? null}::text)`.execute(db);
}

/** Jobs locked by these worker pools go back to the queue (they run again at once). */
export async function forceUnlockWorkers(pool: pg.Pool, poolIds: readonly string[]): Promise<void> {
  await pool.query('SELECT graphile_worker.force_unlock_workers($1::text[])', [poolIds]);
}
