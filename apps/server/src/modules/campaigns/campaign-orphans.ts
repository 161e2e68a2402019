import fs from 'node:fs/promises';
import path from 'node:path';
import type { DbOrTx } from '../../db/database.js';

/**
 * Removes media files that no campaign row names: a crash between the rename to the final
 * name and the transaction's end (or the rollback's cleanup) leaves one behind (reliability.md
 * F7). Only files older than `olderThanMs` are considered, so an upload whose transaction is
 * still open, on this or another instance, is never touched. Temp files are sweepStaleTemps'.
 */
export async function sweepOrphanFiles(
  db: DbOrTx,
  dir: string,
  olderThanMs: number,
): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  const cutoff = Date.now() - olderThanMs;
  const old: string[] = [];
  for (const name of names) {
    if (name.endsWith('.tmp')) continue;
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat?.isFile() && stat.mtimeMs < cutoff) old.push(name);
  }
  let removed = 0;
  const BATCH = 1000;
  for (let i = 0; i < old.length; i += BATCH) {
    const batch = old.slice(i, i + BATCH);
    const known = await db
      .selectFrom('campaign_files')
      .select('stored_name')
      .where('stored_name', 'in', batch)
      .execute();
    const kept = new Set(known.map((r) => r.stored_name));
    for (const name of batch.filter((n) => !kept.has(n))) {
      await fs.rm(path.join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
}
