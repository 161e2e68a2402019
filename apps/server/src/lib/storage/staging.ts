import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-store.js';

/**
 * An instance's staging folder holds a request's upload while it is checked, before it is put
 * in the FileStore; the request removes it either way. What a crash left there (and in the local
 * store's `.partial/`) is removed at the next start, once older than this: another instance
 * sharing the same DATA_DIR may be mid-upload, and no upload takes an hour to arrive.
 */
export const STALE_STAGING_MS = 60 * 60 * 1000;

interface Logger {
  info(obj: object, msg: string): void;
}

export async function prepareStaging(dir: string, store: FileStore, log: Logger): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const cutoff = Date.now() - STALE_STAGING_MS;
  let removed = 0;
  for (const name of await fs.readdir(dir)) {
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat?.isFile() && stat.mtimeMs < cutoff) {
      await fs.rm(path.join(dir, name), { force: true });
      removed++;
    }
  }
  if (store instanceof LocalFileStore) removed += await store.removeStalePartials(STALE_STAGING_MS);
  if (removed > 0) log.info({ removed }, 'removed files an interrupted upload left behind');
}
