import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SAVED_BACKUP_NAME, type SavedBackup } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { writeBackup, type BackupProgressSink, type BackupResult } from './backup-writer.js';

/**
 * Saved backups live in DATA_DIR/backups/ as `backup-<UTC time>[-<why>].xlsx`. A file is
 * written under a temporary name and renamed when complete, so the list never shows half a
 * backup. Scheduled ones (`-scheduled`) and those saved by hand (no suffix) are each pruned to
 * their newest BACKUP_KEEP; those saved before a cleanup (`-cleanup`) stay until an operator
 * removes them, as the only copy of what the cleanup deleted.
 */

export type BackupReason = 'manual' | 'scheduled' | 'cleanup';

export function backupsDir(ctx: Pick<AppContext, 'config'>): string {
  return path.join(ctx.config.dataDir, 'backups');
}

function stamp(now: Date): string {
  return now.toISOString().replace(/[-:.]/g, '');
}

export function backupName(reason: BackupReason, now = new Date()): string {
  return `backup-${stamp(now)}${reason === 'manual' ? '' : `-${reason}`}.xlsx`;
}

/** Bytes a backup file's stream may hold before its writer waits. */
const WRITE_BUFFER = 4 * 1024 * 1024;

/** Writes a backup to `file` through a temporary sibling, renamed once complete. */
export async function writeBackupFile(
  ctx: Pick<AppContext, 'pool'>,
  file: string,
  onProgress?: BackupProgressSink,
): Promise<BackupResult> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.partial`;
  try {
    const result = await writeBackup(
      ctx.pool,
      // Room for a few pieces in flight: at the default 16 KiB every piece waited for its write,
      // which queues on the libuv pool behind the backup's own deflate work.
      createWriteStream(temp, { mode: 0o600, highWaterMark: WRITE_BUFFER }),
      onProgress,
    );
    await fs.rename(temp, file);
    return result;
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

/** Saves a backup under DATA_DIR/backups/ and answers its file name. */
export async function saveBackup(
  ctx: Pick<AppContext, 'pool' | 'config'>,
  reason: BackupReason,
): Promise<string> {
  const dir = backupsDir(ctx);
  let name = backupName(reason);
  // Two saves in one millisecond: the second waits for a name of its own.
  while (
    await fs.stat(path.join(dir, name)).then(
      () => true,
      () => false,
    )
  ) {
    await new Promise((r) => setTimeout(r, 2));
    name = backupName(reason);
  }
  await writeBackupFile(ctx, path.join(dir, name));
  return name;
}

/** The saved backups, newest first. */
export async function listBackups(ctx: Pick<AppContext, 'config'>): Promise<SavedBackup[]> {
  const dir = backupsDir(ctx);
  const names = await fs.readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const out: SavedBackup[] = [];
  for (const name of names) {
    if (!SAVED_BACKUP_NAME.test(name)) continue;
    const st = await fs.stat(path.join(dir, name)).catch(() => null);
    if (!st?.isFile()) continue;
    out.push({ name, size: st.size, createdAt: st.mtime.toISOString() });
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
  ctx: Pick<AppContext, 'config'>,
  reason: 'manual' | 'scheduled',
  keep: number,
): Promise<number> {
  const saved = (await listBackups(ctx)).filter((b) => OF_REASON[reason].test(b.name));
  let removed = 0;
  for (const b of saved.slice(keep)) {
    await fs.rm(path.join(backupsDir(ctx), b.name), { force: true });
    removed++;
  }
  return removed;
}

/** A saved backup's path, or null when there is no such file (names are checked first). */
export async function savedBackupPath(
  ctx: Pick<AppContext, 'config'>,
  name: string,
): Promise<string | null> {
  if (!SAVED_BACKUP_NAME.test(name)) return null;
  const file = path.join(backupsDir(ctx), name);
  const st = await fs.stat(file).catch(() => null);
  return st?.isFile() ? file : null;
}
