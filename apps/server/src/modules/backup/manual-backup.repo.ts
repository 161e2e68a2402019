import { writeProgress } from './backup-downloads.repo.js';
import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';

/** The rows of saves to the server (manual-backup.ts, migration 0028). */

/** How long, in seconds, a save may go without a heartbeat before it counts as dead. */
export interface StaleLimits {
  /** Waiting for the job runner: measured from when it was queued. */
  queued: number;
  /** Building: measured from its last heartbeat. */
  building: number;
}

const staleSql = (limits: StaleLimits) =>
  sql<boolean>`heartbeat_at < now() - make_interval(secs => CASE WHEN state = 'queued'
    THEN ${limits.queued}::float8 ELSE ${limits.building}::float8 END)`;

const COLUMNS = ['id', 'state', 'rows', 'total_rows', 'name', 'error'] as const;

/** A save, and whether its heartbeat is too old for its state (only meaningful while running). */
export function readSave(db: DbOrTx, id: string, limits: StaleLimits) {
  return db
    .selectFrom('backup_saves')
    .select([...COLUMNS, staleSql(limits).as('stale')])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The save queued or building, if any (the unique index allows one). */
export function runningSave(db: DbOrTx, limits: StaleLimits) {
  return db
    .selectFrom('backup_saves')
    .select([...COLUMNS, staleSql(limits).as('stale')])
    .where('state', 'in', ['queued', 'building'])
    .executeTakeFirst();
}

/** One start at a time, until the transaction ends. */
export async function lockSaveStart(tx: DbOrTx): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('backup-save-start'))`.execute(tx);
}

export async function insertSave(tx: DbOrTx, id: string): Promise<void> {
  await tx.insertInto('backup_saves').values({ id }).execute();
}

/**
 * The job takes its save: queued becomes building, unless the save already ended or waited so
 * long that it reads as failed. Answers whether it was taken.
 */
export async function claimSave(
  db: DbOrTx,
  id: string,
  limits: StaleLimits,
  totalRows: number,
): Promise<boolean> {
  const res = await db
    .updateTable('backup_saves')
    .set({ state: 'building', heartbeat_at: new Date(), total_rows: totalRows })
    .where('id', '=', id)
    .where('state', '=', 'queued')
    .where(sql<boolean>`NOT ${staleSql(limits)}`)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Ends a save still running: done with its file's name, or failed with why. */
export async function endSave(
  db: DbOrTx,
  id: string,
  outcome: { state: 'done'; name: string; rows: number } | { state: 'failed'; error: string },
): Promise<void> {
  await db
    .updateTable('backup_saves')
    .set(
      outcome.state === 'done'
        ? {
            state: 'done',
            name: outcome.name,
            rows: outcome.rows,
            total_rows: outcome.rows,
            ended_at: new Date(),
          }
        : { state: 'failed', error: outcome.error, ended_at: new Date() },
    )
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'building'])
    .execute();
}

/** The rows written so far and the heartbeat of a save still building. */
export function writeSaveProgress(db: DbOrTx, id: string, rows: number): Promise<void> {
  return writeProgress(db, id, rows, 'backup_saves');
}

/** Forgets saves that ended more than `keepSeconds` ago (the file itself stays in `backups/`). */
export async function deleteSavesBefore(db: DbOrTx, keepSeconds: number): Promise<void> {
  await db
    .deleteFrom('backup_saves')
    .where('state', 'in', ['done', 'failed'])
    .where('ended_at', '<', sql<Date>`now() - make_interval(secs => ${keepSeconds})`)
    .execute();
}
