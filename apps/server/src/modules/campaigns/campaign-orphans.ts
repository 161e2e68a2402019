import type { DbOrTx } from '../../db/database.js';
import { removeUnreferenced, staleFilesIn } from '../../lib/stale-files.js';
import { knownFileNames } from './campaigns.repo.js';

/**
 * Files a crash left in the campaigns' upload folder: temp files of an
 * interrupted upload, and media files that no campaign row names (a crash between the rename
 * to the final name and the transaction's end, or the rollback's cleanup). Only files older
 * than `olderThanMs` are considered, so an upload still in flight is never touched.
 */

const isTemp = (name: string) => name.endsWith('.tmp');

export async function sweepStaleTemps(dir: string, olderThanMs: number): Promise<number> {
  const stale = await staleFilesIn(dir, olderThanMs, isTemp);
  // No row names a temp file: every stale one goes.
  return removeUnreferenced(dir, stale, async () => []);
}

export async function sweepOrphanFiles(
  db: DbOrTx,
  dir: string,
  olderThanMs: number,
): Promise<number> {
  const stale = await staleFilesIn(dir, olderThanMs, (name) => !isTemp(name));
  return removeUnreferenced(dir, stale, async (batch) => {
    return knownFileNames(db, batch);
  });
}
