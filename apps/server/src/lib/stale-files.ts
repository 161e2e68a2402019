import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The sweeps of files a crash left behind (temp files, final-named files no row names) share
 * these two steps. They look only at files older than a grace period, so an upload whose
 * transaction is still open, on this or another instance, is never touched.
 */

/** Names of the plain files in `dir` that `wanted` keeps and that are older than `olderThanMs`. */
export async function staleFilesIn(
  dir: string,
  olderThanMs: number,
  wanted: (name: string) => boolean,
): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return []; // no folder yet: nothing was ever uploaded there
  }
  const cutoff = Date.now() - olderThanMs;
  const stale: string[] = [];
  for (const name of names) {
    if (!wanted(name)) continue;
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat?.isFile() && stat.mtimeMs < cutoff) stale.push(name);
  }
  return stale;
}

/** The database is asked about this many names at once. */
const BATCH = 1000;

/**
 * Deletes those of `names` (in `dir`) that no row references; `referenced` answers, for a batch
 * of names, which of them are still in use. Returns how many files were deleted.
 */
export async function removeUnreferenced(
  dir: string,
  names: readonly string[],
  referenced: (batch: string[]) => Promise<Iterable<string>>,
): Promise<number> {
  let removed = 0;
  for (let i = 0; i < names.length; i += BATCH) {
    const batch = names.slice(i, i + BATCH);
    const kept = new Set(await referenced(batch));
    for (const name of batch) {
      if (kept.has(name)) continue;
      await fs.rm(path.join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
}
