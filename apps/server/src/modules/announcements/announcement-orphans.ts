import type { DbOrTx } from '../../db/database.js';
import { removeUnreferenced, staleFilesIn } from '../../lib/stale-files.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { IMAGES_FOLDER, isImageName } from './announcement-files.js';
import { namedImages } from './announcements.repo.js';

/**
 * Announcement images in the store older than `olderThanMs` that no announcement names: a
 * crash between writing the image and committing its row, or after a delete's commit but
 * before the image was removed, leaves one behind.
 */
export async function sweepOrphanImages(
  db: DbOrTx,
  store: FileStore,
  olderThanMs: number,
): Promise<number> {
  const stale = await staleFilesIn(store, IMAGES_FOLDER, olderThanMs, isImageName);
  return removeUnreferenced(store, IMAGES_FOLDER, stale, (batch) => namedImages(db, batch));
}
