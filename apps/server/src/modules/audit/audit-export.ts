import {
  AUDIT_CSV_COLUMNS,
  AUDIT_EXPORT_RATE_LIMIT,
  auditMessages as m,
  type AuditLogFilters,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { csvText } from '../campaigns/index.js';
import { auditRows } from './audit-read.repo.js';
import { auditFilter, auditViewer, presentAuditEntry } from './audit-read.service.js';

/**
 * GET /api/audit-log/export (docs/audit.md, The Audit Log screen): every entry the filters
 * select, as CSV, streamed in keyset batches so memory stays bounded whatever the log's size.
 * Cells that a spreadsheet would run as a formula are neutralised (csvText).
 */

const BATCH = 2_000;

export const auditExportRateKey = (userId: string) => `audit-export:user:${userId}`;

/** Counts one export against the user's window; past it, 429 with the export's own message. */
export async function countAuditExport(ctx: AppContext, userId: string): Promise<void> {
  try {
    await ctx.rateLimiter.consume([[auditExportRateKey(userId), AUDIT_EXPORT_RATE_LIMIT]]);
  } catch (err) {
    if (err instanceof AppError && err.status === 429) {
      throw new AppError(429, m.exportTooMany, err.headers);
    }
    throw err;
  }
}

export function auditExportFilename(now = new Date()): string {
  return `audit-log-${now.toISOString().slice(0, 10)}.csv`;
}

/** The header, then every matching entry, newest first (the `before` cursor is ignored). */
export async function* auditCsvChunks(
  db: DbOrTx,
  actor: AuthUser,
  q: AuditLogFilters,
): AsyncGenerator<string> {
  yield csvText([[...AUDIT_CSV_COLUMNS]]);
  const viewer = auditViewer(actor);
  const filter = { ...auditFilter(q), before: undefined as string | undefined };
  for (;;) {
    const rows = await auditRows(db, viewer, filter, BATCH);
    if (rows.length > 0) yield csvText(rows.map((r) => cells(presentAuditEntry(r))));
    const last = rows.at(-1);
    if (rows.length < BATCH || !last) return;
    filter.before = last.id;
  }
}

function cells(e: ReturnType<typeof presentAuditEntry>): string[] {
  return [
    e.at,
    e.actor.label,
    e.actor.role ?? '',
    e.actor.apiKeyId ?? '',
    e.action,
    e.target.type,
    e.target.id ?? '',
    e.target.label ?? '',
    Object.keys(e.changes).length > 0 ? JSON.stringify(e.changes) : '',
    e.ip ?? '',
    e.userAgent ?? '',
  ];
}
