import type { FileStore } from './storage/file-store.js';
import { storageKey } from './storage/file-store.js';

/**
 * The sweeps of stored files a crash left behind (final-named files no row names) share these
 * two steps, on either storage driver. They look only at files older than a grace period, so an
 * upload whose transaction is still open, on this or another instance, is never touched.
 */

/** Names of the files in `folder` that `wanted` keeps and that are older than `olderThanMs`. */
export async function staleFilesIn(
  store: FileStore,
  folder: string,
  olderThanMs: number,
  wanted: (name: string) => boolean,
): Promise<string[]> {
  const cutoff = Date.now() - olderThanMs;
  const stale: string[] = [];
  for await (const obj of store.list(`${folder}/`)) {
    const name = obj.key.slice(folder.length + 1);
    if (name.includes('/') || !wanted(name)) continue;
    if (obj.modified.getTime() < cutoff) stale.push(name);
  }
  return stale;
}

/** The database is asked about this many names at once. */
const BATCH = 1000;

/**
 * Deletes those of `names` (in `folder`) that no row references; `referenced` answers, for a
 * batch of names, which of them are still in use. Returns how many files were deleted.
 */
export async function removeUnreferenced(
  store: FileStore,
  folder: string,
  names: readonly string[],
  referenced: (batch: string[]) => Promise<Iterable<string>>,
): Promise<number> {
  let removed = 0;
  for (let i = 0; i < names.length; i += BATCH) {
    const batch = names.slice(i, i + BATCH);
    const kept = new Set(await referenced(batch));
    for (const name of batch) {
      if (kept.has(name)) continue;
      await store.delete(storageKey(folder, name));
      removed++;
    }
  }
  return removed;
}
