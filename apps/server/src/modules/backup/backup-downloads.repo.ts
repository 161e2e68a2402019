import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';

/** The rows of backup download builds (backup-downloads.ts). */

/** A build, and whether its heartbeat is older than `staleSeconds`. */
export function readDownload(db: DbOrTx, id: string, staleSeconds: number) {
  return db
    .selectFrom('backup_downloads')
    .select([
      'id',
      'state',
      'rows',
      'total_rows',
      'filename',
      sql<boolean>`heartbeat_at < now() - make_interval(secs => ${staleSeconds})`.as('stale'),
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function downloadState(db: DbOrTx, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('backup_downloads')
    .select(['state'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.state;
}

/**
 * Forgets builds that ended more than `keepSeconds` ago, and builds whose heartbeat stopped that
 * long ago (their instance died). A build still running beats, so it stays however long it takes.
 */
export async function deleteDownloadsBefore(db: DbOrTx, keepSeconds: number): Promise<void> {
  const keep = sql<Date>`now() - make_interval(secs => ${keepSeconds})`;
  await db
    .deleteFrom('backup_downloads')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('state', '!=', 'building'),
          eb(sql<Date>`coalesce(ended_at, created_at)`, '<', keep),
        ]),
        eb.and([eb('state', '=', 'building'), eb('heartbeat_at', '<', keep)]),
      ]),
    )
    .execute();
}

export async function downloadIds(db: DbOrTx): Promise<string[]> {
  return (await db.selectFrom('backup_downloads').select('id').execute()).map((r) => r.id);
}

/** One start at a time, until the transaction ends. */
export async function lockDownloadStart(tx: DbOrTx): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('backup-download-start'))`.execute(tx);
}

/** The build running, if any, and whether its heartbeat is within `staleSeconds`. */
export function runningDownload(tx: DbOrTx, staleSeconds: number) {
  return tx
    .selectFrom('backup_downloads')
    .select([
      'id',
      sql<boolean>`heartbeat_at >= now() - make_interval(secs => ${staleSeconds})`.as('alive'),
    ])
    .where('state', '=', 'building')
    .executeTakeFirst();
}

export async function insertDownload(
  tx: DbOrTx,
  d: { id: string; totalRows: number; filename: string },
): Promise<void> {
  await tx
    .insertInto('backup_downloads')
    .values({ id: d.id, total_rows: d.totalRows, filename: d.filename })
    .execute();
}

export function endBuild(db: DbOrTx, id: string, state: 'ready' | 'failed', rows?: number) {
  return db
    .updateTable('backup_downloads')
    .set({
      state,
      ended_at: new Date(),
      ...(rows === undefined ? {} : { rows, total_rows: rows }),
    })
    .where('id', '=', id)
    .where('state', '=', 'building')
    .execute();
}

/**
 * The rows written so far and the heartbeat of a build still running: a download's or a save
 * to the server's (manual-backup.repo.ts), whose tables share these columns.
 */
export async function writeProgress(
  db: DbOrTx,
  id: string,
  rows: number,
  table: 'backup_downloads' | 'backup_saves' = 'backup_downloads',
): Promise<void> {
  await db
    .updateTable(table)
    .set({
      heartbeat_at: new Date(),
      rows,
      total_rows: sql`greatest(total_rows, ${rows})`,
    })
    .where('id', '=', id)
    .where('state', '=', 'building')
    .execute();
}
