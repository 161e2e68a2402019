import type { StorageUsage } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { MAIL_FILES_FOLDER } from '../../lib/mail.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { databaseBytes, publicTableNames, tableRowCounts } from './backup.repo.js';
import { BACKUPS_FOLDER } from './backup-store.js';
import { DOWNLOADS_FOLDER } from './backup-downloads.js';

/**
 * Storage Management (docs/product.md, Backup and storage): the files Herald keeps in MB, that
 * is the objects of the file store (docs/operations.md, File storage: uploads, saved backups,
 * backup downloads, the mail folder), whichever driver holds them and whichever instance asks;
 * the database's size in MB and each table's row count.
 */

const MB = 1024 * 1024;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The store's top folders: every key Herald writes starts with one of them. */
const FOLDERS = ['uploads/', `${BACKUPS_FOLDER}/`, `${DOWNLOADS_FOLDER}/`, `${MAIL_FILES_FOLDER}/`];

async function storedBytes(store: FileStore): Promise<number> {
  let total = 0;
  for (const prefix of FOLDERS) {
    for await (const obj of store.list(prefix)) total += obj.size;
  }
  return total;
}

export async function storageUsage(ctx: AppContext): Promise<StorageUsage> {
  const fileBytes = await storedBytes(ctx.files);
  const bytes = await databaseBytes(ctx.pool);
  const collections = await tableRowCounts(ctx.pool, await publicTableNames(ctx.pool));
  return {
    fileStorage: { megabytes: round2(fileBytes / MB) },
    databaseStorage: { megabytes: round2(bytes / MB), collections },
  };
}
