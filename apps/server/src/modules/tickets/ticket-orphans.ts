import type { DbOrTx } from '../../db/database.js';
import { removeUnreferenced, staleFilesIn } from '../../lib/stale-files.js';
import { ticketsDir } from './ticket-files.js';
import { knownAttachmentNames } from './tickets.repo.js';

/**
 * Files a crash left in the tickets' upload folder: temp files of an interrupted upload, and
 * attachments no row names (a crash between the rename to the final name and the commit).
 * Only files older than `olderThanMs` are considered, so an upload in flight is never touched.
 */
export async function sweepTicketUploads(
  db: DbOrTx,
  uploadsDir: string,
  olderThanMs: number,
): Promise<number> {
  const dir = ticketsDir(uploadsDir);
  const stale = await staleFilesIn(dir, olderThanMs, () => true);
  return removeUnreferenced(dir, stale, async (batch) => {
    const names = batch.filter((n) => !n.endsWith('.tmp'));
    if (names.length === 0) return [];
    return knownAttachmentNames(db, names);
  });
}
