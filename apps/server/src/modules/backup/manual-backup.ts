import { randomBytes } from 'node:crypto';
import { server as msg, type BackupSave } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { addJob, TASKS } from '../../jobs/job-queue.js';
import { conflict } from '../../lib/app-error.js';
import { recordAudit, type AuditActor } from '../audit/index.js';
import { pruneSaved, saveBackup } from './backup-store.js';
import { BACKUP_TABLE_NAMES } from './backup-writer.js';
import { tableRowCounts } from './backup.repo.js';
import {
  claimSave,
  deleteSavesBefore,
  endSave,
  insertSave,
  lockSaveStart,
  readSave,
  runningSave,
  writeSaveProgress,
  type StaleLimits,
} from './manual-backup.repo.js';
import { ProgressWriter } from './progress-writer.js';

/**
 * "Save backup to server" (docs/product.md, Backup and storage): the POST records a save
 * (migration 0028) and gives it to the job runner, answering at once, since a large backup takes
 * minutes and a proxy would cut a request that long. The job writes the backup into the file
 * store under `backups/` as every saved backup is (backup-store.ts), then prunes the manual ones
 * to the newest BACKUP_KEEP, as the scheduled ones are. One save at a time across every instance:
 * a POST while one is queued or building answers 409. The state lives in the database, so any
 * instance answers it. A save whose instance died (building with no heartbeat, or queued and
 * never taken) reads as failed, and the next POST ends it so that a new one may start.
 */

/** A building save whose heartbeat is older than this lost its instance. */
export const SAVE_STALE_MS = 30_000;
/**
 * A queued save not taken by the job runner within this long is taken as lost (a runner that
 * took the job and died before starting it). Generous: the runner may be busy with other jobs.
 */
export const SAVE_QUEUED_STALE_MS = 10 * 60 * 1000;
const LIMITS: StaleLimits = { queued: SAVE_QUEUED_STALE_MS / 1000, building: SAVE_STALE_MS / 1000 };
/** Ended saves are kept this long, for a screen that asks late how its save went. */
const KEEP_MS = 24 * 60 * 60 * 1000;

type SaveRow = NonNullable<Awaited<ReturnType<typeof readSave>>>;

/** A save as the screen sees it; one that died reads as failed. */
function toSave(row: SaveRow): BackupSave {
  const dead = (row.state === 'queued' || row.state === 'building') && row.stale;
  const state = dead ? 'failed' : row.state;
  const message =
    state === 'done' && row.name
      ? msg.backupSaved(row.name)
      : state === 'failed'
        ? (row.error ?? msg.backupFailed)
        : null;
  return {
    id: row.id,
    state,
    rows: Number(row.rows),
    totalRows: Number(row.total_rows),
    name: row.name,
    message,
  };
}

export async function findSave(
  ctx: Pick<AppContext, 'db'>,
  id: string,
): Promise<BackupSave | undefined> {
  const row = await readSave(ctx.db, id, LIMITS);
  return row && toSave(row);
}

/** The save queued or building, if any; one that died is not running. */
export async function currentSave(ctx: Pick<AppContext, 'db'>): Promise<BackupSave | null> {
  const row = await runningSave(ctx.db, LIMITS);
  return row && !row.stale ? toSave(row) : null;
}

/** Queues a save on the job runner; 409 while another one is queued or building. */
export async function startSave(
  ctx: Pick<AppContext, 'db'>,
  actor: AuditActor,
): Promise<BackupSave> {
  await deleteSavesBefore(ctx.db, KEEP_MS / 1000);
  const id = randomBytes(24).toString('base64url');
  await ctx.db.transaction().execute(async (tx) => {
    await lockSaveStart(tx);
    const running = await runningSave(tx, LIMITS);
    if (running && !running.stale) throw conflict(msg.backupSaveRunning);
    // Its instance died: it ends as failed, which lets this one start.
    if (running) await endSave(tx, running.id, { state: 'failed', error: msg.backupFailed });
    await insertSave(tx, id);
    // One attempt: a save cut short reads as failed, and the Admin starts another.
    await addJob(tx, TASKS.saveBackupToServer, { id }, { maxAttempts: 1 });
    // The Admin's request is the entry; the file's name is known once the job has written it.
    await recordAudit(tx, {
      actor,
      action: 'backup.create',
      target: { type: 'backup', id, label: null, subjectUserId: null },
    });
  });
  const save = await findSave(ctx, id);
  if (!save) throw new Error('backup save row vanished after insert');
  return save;
}

/** The job: builds the backup into the store, with progress and heartbeat in the row. */
export async function runSave(ctx: AppContext, id: string): Promise<void> {
  let totalRows: number;
  try {
    const counts = await tableRowCounts(ctx.pool, BACKUP_TABLE_NAMES);
    totalRows = counts.reduce((sum, c) => sum + c.count, 0);
  } catch (err) {
    // Said at once rather than left queued until it reads as lost (the job has one attempt).
    ctx.log.error({ err, component: 'backup' }, 'backup save to server could not start');
    await endSave(ctx.db, id, { state: 'failed', error: msg.backupFailed });
    return;
  }
  if (!(await claimSave(ctx.db, id, LIMITS, totalRows))) return;
  const progress = new ProgressWriter(ctx, (rows) => writeSaveProgress(ctx.db, id, rows));
  // This running job's own heartbeat (not periodic work: it starts and ends with the job), kept
  // up while a big table's first batch is on its way.
  const beat = setInterval(() => progress.write(), SAVE_STALE_MS / 3);
  try {
    const name = await saveBackup(ctx, 'manual', (rows) => progress.update(rows));
    // The backup is whole and saved: a prune that fails is logged, and tried again next save.
    await pruneSaved(ctx, 'manual', ctx.config.backupKeep).catch((err: unknown) =>
      ctx.log.warn({ err, component: 'backup' }, 'manual backups not pruned'),
    );
    clearInterval(beat);
    await progress.idle();
    await endSave(ctx.db, id, { state: 'done', name, rows: progress.rowsSoFar });
  } catch (err) {
    clearInterval(beat);
    await progress.idle();
    ctx.log.error({ err, component: 'backup' }, 'backup save to server failed');
    await endSave(ctx.db, id, { state: 'failed', error: msg.backupFailed });
  }
}
