import path from 'node:path';
import type { DbOrTx } from '../../db/database.js';
import { removeUnreferenced, staleFilesIn } from '../../lib/stale-files.js';
import { usedLogoUrls } from './branding.repo.js';
import { isLogoName, logoUrl } from './logo-files.js';

/**
 * Logo files (and their temp files) older than `olderThanMs` that no user's branding names: a
 * crash mid-upload, or after the commit of a logo change but before the old file was deleted,
 * leaves one behind.
 */
export async function sweepOrphanLogos(
  db: DbOrTx,
  uploadsDir: string,
  olderThanMs: number,
): Promise<number> {
  const dir = path.join(uploadsDir, 'logos');
  const stale = await staleFilesIn(
    dir,
    olderThanMs,
    (name) => isLogoName(name) || name.endsWith('.tmp'),
  );
  return removeUnreferenced(dir, stale, async (batch) => {
    const logos = batch.filter(isLogoName);
    if (logos.length === 0) return [];
    const used = new Set(await usedLogoUrls(db, logos.map(logoUrl)));
    return logos.filter((name) => used.has(logoUrl(name)));
  });
}
