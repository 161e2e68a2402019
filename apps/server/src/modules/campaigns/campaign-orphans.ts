import type { DbOrTx } from '../../db/database.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { removeUnreferenced, staleFilesIn } from '../../lib/stale-files.js';
import { CAMPAIGN_FILES_FOLDER } from './campaign-files.js';
import { knownFileNames } from './campaigns.repo.js';

/**
 * Stored campaign media that no campaign row names: a crash between the put into the store
 * and the transaction's end, or a failed rollback cleanup. Only objects older than
 * `olderThanMs` are considered, so an upload still in flight (on any instance) is never
 * touched. Staged temp files are not here: they live in each instance's staging folder, which
 * is cleaned at start-up (lib/storage/staging.ts).
 */
export async function sweepOrphanFiles(
  db: DbOrTx,
  store: FileStore,
  olderThanMs: number,
): Promise<number> {
  const stale = await staleFilesIn(store, CAMPAIGN_FILES_FOLDER, olderThanMs, () => true);
  return removeUnreferenced(store, CAMPAIGN_FILES_FOLDER, stale, (batch) =>
    knownFileNames(db, batch),
  );
}
