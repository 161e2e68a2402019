import type { DbOrTx } from '../../db/database.js';
import { removeUnreferenced, staleFilesIn } from '../../lib/stale-files.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { TICKETS_FOLDER } from './ticket-files.js';
import { knownAttachmentNames } from './tickets.repo.js';

/**
 * Attachments in the store that no row names (a crash between the put and the commit), and
 * temp files an interrupted upload left in the folder before uploads were staged elsewhere.
 * Only files older than `olderThanMs` are considered, so an upload in flight, on this or
 * another instance, is never touched.
 */
export async function sweepTicketUploads(
  db: DbOrTx,
  store: FileStore,
  olderThanMs: number,
): Promise<number> {
  const stale = await staleFilesIn(store, TICKETS_FOLDER, olderThanMs, () => true);
  return removeUnreferenced(store, TICKETS_FOLDER, stale, async (batch) => {
    const names = batch.filter((n) => !n.endsWith('.tmp'));
    if (names.length === 0) return [];
    return knownAttachmentNames(db, names);
  });
}
