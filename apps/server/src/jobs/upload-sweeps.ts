import type { Db } from '../db/database.js';
import { sweepOrphanImages } from '../modules/announcements/announcement-orphans.js';
import { sweepOrphanLogos } from '../modules/branding/logo-orphans.js';
import { campaignsDir } from '../modules/campaigns/campaign-files.js';
import { sweepOrphanFiles, sweepStaleTemps } from '../modules/campaigns/campaign-orphans.js';
import { sweepTicketUploads } from '../modules/tickets/ticket-orphans.js';

/**
 * A file is swept only once it is this old, so an upload whose transaction is still open, on
 * this or another instance, is never touched.
 */
export const UPLOAD_GRACE_MS = 60 * 60 * 1000;

export interface SweepResult {
  campaignTemps: number;
  campaignOrphans: number;
  logos: number;
  tickets: number;
  announcementImages: number;
}

/**
 * Files a crash left behind: temp files of an interrupted upload, and final-named files that no
 * row names (a crash between the rename and the commit, or after the commit of a logo change
 * but before the old logo was deleted).
 */
export async function sweepUploads(
  db: Db,
  uploadsDir: string,
  olderThanMs = UPLOAD_GRACE_MS,
): Promise<SweepResult> {
  const dir = campaignsDir(uploadsDir);
  return {
    campaignTemps: await sweepStaleTemps(dir, olderThanMs),
    campaignOrphans: await sweepOrphanFiles(db, dir, olderThanMs),
    logos: await sweepOrphanLogos(db, uploadsDir, olderThanMs),
    tickets: await sweepTicketUploads(db, uploadsDir, olderThanMs),
    announcementImages: await sweepOrphanImages(db, uploadsDir, olderThanMs),
  };
}
