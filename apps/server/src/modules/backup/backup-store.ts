import { PassThrough } from 'node:stream';
import { SAVED_BACKUP_NAME, type SavedBackup } from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { storageKey } from '../../lib/storage/file-store.js';
import { writeBackup, type BackupProgressSink, type BackupResult } from './backup-writer.js';

/**
 * Saved backups are objects of the file store (docs/operations.md, File storage) under
 * `backups/backup-<UTC time>[-<why>].xlsx`; on the local driver that is DATA_DIR/backups/, as
 * before, so backups saved before the store existed are listed as they are. A store shows an
 * object only once it is whole, so the list never shows half a backup. Scheduled ones
 * (`-scheduled`) and those saved by hand (no suffix) are each pruned to their newest
 * BACKUP_KEEP; those saved before a cleanup (`-cleanup`) stay until an operator removes them,
 * as the only copy of what the cleanup deleted.
 */

export type BackupReason = 'manual' | 'scheduled' | 'cleanup';

export const BACKUPS_FOLDER = 'backups';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function stamp(now: Date): string {
  return now.toISOString().replace(/[-:.]/g, '');
}

export function backupName(reason: BackupReason, now = new Date()): string {
  return `backup-${stamp(now)}${reason === 'manual' ? '' : `-${reason}`}.xlsx`;
}

/** A saved backup's key; null for a name that is not a saved backup's (a tampered URL). */
export function savedBackupKey(name: string): string | null {
  return SAVED_BACKUP_NAME.test(name) ? storageKey(BACKUPS_FOLDER, name) : null;
}

/**
 * Bytes of the backup the writer may get ahead of the store before it waits: room for a few
 * pieces in flight, so the writer's deflate work and the store's writes overlap, while a backup
 * of any size needs no more memory than this and the store's own buffer (an S3 part or two).
 */
const WRITE_BUFFER = 4 * 1024 * 1024;

/**
 * Streams a backup into the store under `key`. Either side failing stops the other: a writer
 * that fails destroys the stream it writes to (writeBackup), so the put rejects and nothing is
 * left under `key`; a store that fails destroys that stream too, so the writer stops rather
 * than wait for a reader that is gone.
 */
export async function writeBackupObject(
  ctx: Pick<AppContext, 'pool' | 'files'>,
  key: string,
  onProgress?: BackupProgressSink,
): Promise<BackupResult> {
  const body = new PassThrough({ highWaterMark: WRITE_BUFFER });
  let storeError: unknown;
  const stored = ctx.files.put(key, body, { contentType: XLSX_TYPE });
  stored.catch((err: unknown) => {
    storeError = err;
    if (!body.destroyed) body.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  let result: BackupResult;
  try {
    result = await writeBackup(ctx.pool, body, onProgress);
  } catch (err) {
    // The put has seen its body fail: wait until it has cleaned up before answering. A writer
    // that failed first failed the put with its own error; a store that failed by itself (a
    // full disk, S3 gone) is why the writer stopped, and says so better than a closed stream.
    await stored.catch(() => {});
    throw storeError !== undefined && storeError !== err ? storeError : err;
  }
  await stored;
  return result;
}

/** Saves a backup under `backups/` in the store and answers its name. */
export async function saveBackup(
  ctx: Pick<AppContext, 'pool' | 'files'>,
  reason: BackupReason,
  onProgress?: BackupProgressSink,
): Promise<string> {
  let name = backupName(reason);
  // Two saves in one millisecond: the second waits for a name of its own.
  while (await ctx.files.stat(storageKey(BACKUPS_FOLDER, name))) {
    await new Promise((r) => setTimeout(r, 2));
    name = backupName(reason);
  }
  await writeBackupObject(ctx, storageKey(BACKUPS_FOLDER, name), onProgress);
  return name;
}

/** The saved backups, newest first. */
export async function listBackups(ctx: { files: FileStore }): Promise<SavedBackup[]> {
  const out: SavedBackup[] = [];
  for await (const obj of ctx.files.list(`${BACKUPS_FOLDER}/`)) {
    const name = obj.key.slice(BACKUPS_FOLDER.length + 1);
    // Only the folder's own backups: no deeper key, nothing else an operator put there.
    if (name.includes('/') || !SAVED_BACKUP_NAME.test(name)) continue;
    out.push({ name, size: obj.size, createdAt: obj.modified.toISOString() });
  }
  return out.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

/** Which saved backups a reason's file names are: `-scheduled`, or no suffix for manual ones. */
const OF_REASON: Record<'manual' | 'scheduled', RegExp> = {
  manual: /^backup-[0-9TZ]+\.xlsx$/,
  scheduled: /-scheduled\.xlsx$/,
};

/** Keeps the newest `keep` backups saved for `reason`; answers how many were removed. */
export async function pruneSaved(
  ctx: { files: FileStore },
  reason: 'manual' | 'scheduled',
  keep: number,
): Promise<number> {
  const saved = (await listBackups(ctx)).filter((b) => OF_REASON[reason].test(b.name));
  let removed = 0;
  for (const b of saved.slice(keep)) {
    await ctx.files.delete(storageKey(BACKUPS_FOLDER, b.name));
    removed++;
  }
  return removed;
}
