import type { Db } from '../db/database.js';
import type { FileStore } from '../lib/storage/file-store.js';
import { sweepOrphanImages } from '../modules/announcements/announcement-orphans.js';
import { sweepOrphanLogos } from '../modules/branding/logo-orphans.js';
import { sweepOrphanFiles } from '../modules/campaigns/campaign-orphans.js';
import { sweepTicketUploads } from '../modules/tickets/ticket-orphans.js';

/**
 * A file is swept only once it is this old, so an upload whose transaction is still open, on
 * this or another instance, is never touched.
 */
export const UPLOAD_GRACE_MS = 60 * 60 * 1000;

export interface SweepResult {
  campaignOrphans: number;
  logos: number;
  tickets: number;
  announcementImages: number;
}

/**
 * Stored files a crash left behind: final-named files that no row names (a crash between the
 * put and the commit, or after the commit of a logo change but before the old logo was
 * deleted). The store is shared by every instance, so one run sweeps for all of them; an
 * upload's staged temp file is the staging folder's, cleared at each instance's start.
 */
export async function sweepUploads(
  db: Db,
  store: FileStore,
  olderThanMs = UPLOAD_GRACE_MS,
): Promise<SweepResult> {
  return {
    campaignOrphans: await sweepOrphanFiles(db, store, olderThanMs),
    logos: await sweepOrphanLogos(db, store, olderThanMs),
    tickets: await sweepTicketUploads(db, store, olderThanMs),
    announcementImages: await sweepOrphanImages(db, store, olderThanMs),
  };
}
