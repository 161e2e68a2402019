import type { DbOrTx } from '../../db/database.js';
import { removeUnreferenced, staleFilesIn } from '../../lib/stale-files.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import { usedLogoUrls } from './branding.repo.js';
import { LOGOS_FOLDER, isLogoName, logoUrl } from './logo-files.js';

/**
 * Logos in the store older than `olderThanMs` that no user's branding names (and temp files an
 * interrupted upload left in the folder before uploads were staged elsewhere): a crash
 * mid-upload, or after the commit of a logo change but before the old logo was deleted, leaves
 * one behind.
 */
export async function sweepOrphanLogos(
  db: DbOrTx,
  store: FileStore,
  olderThanMs: number,
): Promise<number> {
  const stale = await staleFilesIn(
    store,
    LOGOS_FOLDER,
    olderThanMs,
    (name) => isLogoName(name) || name.endsWith('.tmp'),
  );
  return removeUnreferenced(store, LOGOS_FOLDER, stale, async (batch) => {
    const logos = batch.filter(isLogoName);
    if (logos.length === 0) return [];
    const used = new Set(await usedLogoUrls(db, logos.map(logoUrl)));
    return logos.filter((name) => used.has(logoUrl(name)));
  });
}
