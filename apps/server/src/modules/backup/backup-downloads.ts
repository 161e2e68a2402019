import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BackupProgress } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { backupName, backupsDir, writeBackupFile } from './backup-store.js';
import { BACKUP_TABLE_NAMES, tableRowCounts } from './backup-writer.js';

/**
 * "Generate download" (spec 2.17): the POST starts building the workbook into a file under
 * DATA_DIR/backups/.downloads/ and answers at once with an unguessable id; the screen polls the
 * build's progress, then GETs the file (Admin only; the GET itself waits for the build, so a
 * client that goes straight to the download still gets the whole file). A build is kept for
 * KEEP_MS after it ends, then its file is deleted. While a build runs, a second request joins
 * it rather than starting another full scan of the database.
 */

const KEEP_MS = 15 * 60 * 1000;

export interface DownloadBuild {
  id: string;
  state: BackupProgress['state'];
  rows: number;
  totalRows: number;
  file: string;
  filename: string;
  done: Promise<void>;
  endedAt: number | null;
}

const builds = new WeakMap<AppContext, Map<string, DownloadBuild>>();

function buildsOf(ctx: AppContext): Map<string, DownloadBuild> {
  let map = builds.get(ctx);
  if (!map) builds.set(ctx, (map = new Map()));
  return map;
}

export function downloadsDir(ctx: Pick<AppContext, 'config'>): string {
  return path.join(backupsDir(ctx), '.downloads');
}

/** Forgets builds that ended long enough ago and deletes their files (and strays from a restart). */
async function sweep(ctx: AppContext): Promise<void> {
  const map = buildsOf(ctx);
  const now = Date.now();
  const live = new Set<string>();
  for (const [id, b] of map) {
    if (b.endedAt !== null && now - b.endedAt > KEEP_MS) map.delete(id);
    else live.add(path.basename(b.file));
  }
  const dir = downloadsDir(ctx);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (live.has(name)) continue;
    const st = await fs.stat(path.join(dir, name)).catch(() => null);
    if (st && now - st.mtimeMs > KEEP_MS) await fs.rm(path.join(dir, name), { force: true });
  }
}

/** Starts a build, or answers the one running. */
export async function startDownload(ctx: AppContext): Promise<DownloadBuild> {
  await sweep(ctx);
  const map = buildsOf(ctx);
  for (const b of map.values()) if (b.state === 'building') return b;

  const id = randomBytes(24).toString('base64url');
  const counts = await tableRowCounts(ctx.pool, BACKUP_TABLE_NAMES);
  const build: DownloadBuild = {
    id,
    state: 'building',
    rows: 0,
    totalRows: counts.reduce((sum, c) => sum + c.count, 0),
    file: path.join(downloadsDir(ctx), `${id}.xlsx`),
    filename: backupName('manual'),
    done: Promise.resolve(),
    endedAt: null,
  };
  build.done = writeBackupFile(ctx, build.file, (rows) => {
    build.rows = rows;
    if (rows > build.totalRows) build.totalRows = rows;
  }).then(
    (result) => {
      build.rows = result.total;
      build.totalRows = result.total;
      build.state = 'ready';
      build.endedAt = Date.now();
    },
    (err: unknown) => {
      ctx.log.error({ err, component: 'backup' }, 'backup download build failed');
      build.state = 'failed';
      build.endedAt = Date.now();
    },
  );
  map.set(id, build);
  return build;
}

export function findDownload(ctx: AppContext, id: string): DownloadBuild | undefined {
  return buildsOf(ctx).get(id);
}

export function progressOf(build: DownloadBuild): BackupProgress {
  return { state: build.state, rows: build.rows, totalRows: build.totalRows };
}
