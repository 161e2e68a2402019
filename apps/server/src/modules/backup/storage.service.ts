import fs from 'node:fs/promises';
import path from 'node:path';
import type { StorageUsage } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { databaseBytes, publicTableNames, tableRowCounts } from './backup.repo.js';

/**
 * Storage Management (docs/product.md, Backup and storage): the files under DATA_DIR (uploads, saved backups, the mail
 * outbox) in MB; the database's size in MB and each table's row count. The embedded database's
 * own directory (DATA_DIR/postgres) is the database's size, not file storage.
 */

const MB = 1024 * 1024;
const round2 = (n: number) => Math.round(n * 100) / 100;

async function directoryBytes(dir: string, skipTop: (name: string) => boolean): Promise<number> {
  let total = 0;
  const walk = async (d: string, top: boolean): Promise<void> => {
    const entries = await fs.readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (top && skipTop(e.name)) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p, false);
      else if (e.isFile()) total += (await fs.stat(p).catch(() => null))?.size ?? 0;
    }
  };
  await walk(dir, true);
  return total;
}

export async function storageUsage(ctx: AppContext): Promise<StorageUsage> {
  const fileBytes = await directoryBytes(ctx.config.dataDir, (name) => name.startsWith('postgres'));
  const bytes = await databaseBytes(ctx.pool);
  const collections = await tableRowCounts(ctx.pool, await publicTableNames(ctx.pool));
  return {
    fileStorage: { megabytes: round2(fileBytes / MB) },
    databaseStorage: { megabytes: round2(bytes / MB), collections },
  };
}
