import type { DbOrTx } from '../../db/database.js';
import { removeUnreferenced, staleFilesIn } from '../../lib/stale-files.js';
import { imagesDir, isImageName } from './announcement-files.js';
import { namedImages } from './announcements.repo.js';

/**
 * Announcement images (and their temp files) older than `olderThanMs` that no announcement
 * names: a crash between writing the image and committing its row, or after a delete's commit
 * but before the file was removed, leaves one behind.
 */
export async function sweepOrphanImages(
  db: DbOrTx,
  uploadsDir: string,
  olderThanMs: number,
): Promise<number> {
  const dir = imagesDir(uploadsDir);
  const stale = await staleFilesIn(
    dir,
    olderThanMs,
    (name) => isImageName(name) || (name.startsWith('.') && name.endsWith('.tmp')),
  );
  return removeUnreferenced(dir, stale, async (batch) => {
    const images = batch.filter(isImageName);
    if (images.length === 0) return [];
    return namedImages(db, images);
  });
}
