import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/database.js';
import { isLogoName, logoUrl } from '../modules/branding/logo-files.js';
import { campaignsDir, sweepStaleTemps } from '../modules/campaigns/campaign-files.js';
import { sweepOrphanFiles } from '../modules/campaigns/campaign-orphans.js';

/**
 * A file is swept only once it is this old, so an upload whose transaction is still open, on
 * this or another instance, is never touched.
 */
export const UPLOAD_GRACE_MS = 60 * 60 * 1000;

export interface SweepResult {
  campaignTemps: number;
  campaignOrphans: number;
  logos: number;
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
  };
}

/** Logo files (and their temp files) older than `olderThanMs` that no user's branding names. */
export async function sweepOrphanLogos(
  db: Db,
  uploadsDir: string,
  olderThanMs: number,
): Promise<number> {
  const dir = path.join(uploadsDir, 'logos');
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  const cutoff = Date.now() - olderThanMs;
  const old: string[] = [];
  for (const name of names) {
    if (!isLogoName(name) && !name.endsWith('.tmp')) continue;
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat?.isFile() && stat.mtimeMs < cutoff) old.push(name);
  }
  const logos = old.filter(isLogoName);
  const used = new Set<string>();
  const BATCH = 1000;
  for (let i = 0; i < logos.length; i += BATCH) {
    const urls = logos.slice(i, i + BATCH).map(logoUrl);
    const rows = await db
      .selectFrom('users')
      .select('company_logo')
      .where('company_logo', 'in', urls)
      .execute();
    for (const r of rows) if (r.company_logo) used.add(r.company_logo);
  }
  let removed = 0;
  for (const name of old) {
    if (used.has(logoUrl(name))) continue;
    await fs.rm(path.join(dir, name), { force: true });
    removed++;
  }
  return removed;
}
