import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BackupProgress } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { addJob, TASKS } from '../../jobs/job-queue.js';
import { staleFilesIn } from '../../lib/stale-files.js';
import { storageKey } from '../../lib/storage/file-store.js';
import { backupName, writeBackupObject } from './backup-store.js';
import { BACKUP_TABLE_NAMES } from './backup-writer.js';
import {
  deleteDownloadsBefore,
  downloadIds,
  downloadState,
  endBuild,
  insertDownload,
  lockDownloadStart,
  readDownload,
  runningDownload,
  writeProgress,
} from './backup-downloads.repo.js';
import { tableRowCounts } from './backup.repo.js';
import { ProgressWriter } from './progress-writer.js';

/**
 * "Generate download" (docs/product.md, Backup and storage): the POST records a build
 * (migration 0019) and gives it to the job runner, which writes the workbook into the file
 * store as `backup-downloads/<id>.xlsx` (docs/operations.md, File storage); it answers at once
 * with an unguessable id. The screen polls the build's progress, then GETs the file (Admin
 * only; the GET waits for the build, so a client that goes straight to the download still gets
 * the whole file). The state is in the database and the file in the store, so any instance answers
 * the polls and the GET, whichever instance ran the build.
 * While a build runs, a second request joins it rather than starting another full scan. A
 * build is kept for KEEP_MS after it ends (or after its heartbeat stopped), then its row and file
 * go; one still running is never swept, however long it takes (its object appears only once
 * whole, and while its row lives its id is spared).
 */

const KEEP_MS = 15 * 60 * 1000;
/** A build whose heartbeat is older than this lost its instance: it counts as failed. */
export const STALE_MS = 30_000;
/** How often a waiting GET looks at the build again. */
const WAIT_POLL_MS = 200;

export interface DownloadBuild {
  id: string;
  state: BackupProgress['state'];
  rows: number;
  totalRows: number;
  /** The workbook's key in the file store. */
  key: string;
  filename: string;
}

export const DOWNLOADS_FOLDER = 'backup-downloads';

/** Ids are base64url (no dot), so `<id>.xlsx` is always a key. */
export const downloadKey = (id: string) => storageKey(DOWNLOADS_FOLDER, `${id}.xlsx`);

/** Reads a build; one whose instance died (heartbeat stale) reads as failed. */
export async function findDownload(
  ctx: Pick<AppContext, 'db'>,
  id: string,
): Promise<DownloadBuild | undefined> {
  const row = await readDownload(ctx.db, id, STALE_MS / 1000);
  if (!row) return undefined;
  return {
    id: row.id,
    state: row.state === 'building' && row.stale ? 'failed' : row.state,
    rows: Number(row.rows),
    totalRows: Number(row.total_rows),
    key: downloadKey(row.id),
    filename: row.filename,
  };
}

/** Waits until the build has ended (or its instance died) and answers it. */
export async function waitForDownload(
  ctx: Pick<AppContext, 'db'>,
  id: string,
): Promise<DownloadBuild | undefined> {
  for (;;) {
    const build = await findDownload(ctx, id);
    if (!build || build.state !== 'building') return build;
    await sleep(WAIT_POLL_MS);
  }
}

/** Forgets builds that ended (or died) long enough ago, with their files (and strays from a crash). */
async function sweep(ctx: Pick<AppContext, 'db' | 'files'>): Promise<void> {
  await deleteDownloadsBefore(ctx.db, KEEP_MS / 1000);
  const live = new Set(await downloadIds(ctx.db));
  const stale = await staleFilesIn(
    ctx.files,
    DOWNLOADS_FOLDER,
    KEEP_MS,
    (name) => !live.has(name.split('.')[0] ?? ''),
  );
  for (const name of stale) await ctx.files.delete(storageKey(DOWNLOADS_FOLDER, name));
}

/** Starts a build on the job runner, or answers the one running. */
export async function startDownload(
  ctx: Pick<AppContext, 'db' | 'pool' | 'files'>,
): Promise<{ id: string }> {
  await sweep(ctx);
  const counts = await tableRowCounts(ctx.pool, BACKUP_TABLE_NAMES);
  const totalRows = counts.reduce((sum, c) => sum + c.count, 0);
  return ctx.db.transaction().execute(async (tx) => {
    // One start at a time: a request that finds a build running joins it.
    await lockDownloadStart(tx);
    const running = await runningDownload(tx, STALE_MS / 1000);
    if (running?.alive) return { id: running.id };
    if (running) await endBuild(tx, running.id, 'failed');
    const id = randomBytes(24).toString('base64url');
    await insertDownload(tx, { id, totalRows, filename: backupName('manual') });
    // One attempt: a build cut short reads as failed and the next request starts afresh.
    await addJob(tx, TASKS.buildBackupDownload, { id }, { maxAttempts: 1 });
    return { id };
  });
}

/** The job: writes the workbook, its progress and heartbeat in the row as it goes. */
export async function buildDownload(ctx: AppContext, id: string): Promise<void> {
  if ((await downloadState(ctx.db, id)) !== 'building') return;
  const progress = new ProgressWriter(ctx, (rows) => writeProgress(ctx.db, id, rows));
  // This running job's own heartbeat (not periodic work: it starts and ends with the job, on
  // the job runner), kept up while a big table's first batch is on its way.
  const beat = setInterval(() => progress.write(), STALE_MS / 3);
  try {
    const result = await writeBackupObject(ctx, downloadKey(id), (rows) => progress.update(rows));
    clearInterval(beat);
    await progress.idle();
    await endBuild(ctx.db, id, 'ready', result.total);
  } catch (err) {
    clearInterval(beat);
    await progress.idle();
    ctx.log.error({ err, component: 'backup' }, 'backup download build failed');
    await endBuild(ctx.db, id, 'failed');
  }
}

export function progressOf(build: DownloadBuild): BackupProgress {
  return { state: build.state, rows: build.rows, totalRows: build.totalRows };
}
