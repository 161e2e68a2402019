import type { DbOrTx } from '../../db/database.js';
import { pruneAuditBatch } from './audit-read.repo.js';

/**
 * Retention (docs/audit.md, Retention): the daily job removes the entries older than the
 * Admin's setting through `audit_log_prune`, the owner's function, in batches so no statement
 * holds many rows at once, until a batch comes back short.
 */
export const AUDIT_PRUNE_BATCH = 5_000;

/** Answers how many entries went. */
export async function pruneAuditLog(db: DbOrTx, batch = AUDIT_PRUNE_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const removed = await pruneAuditBatch(db, batch);
    total += removed;
    if (removed < batch) return total;
  }
}
