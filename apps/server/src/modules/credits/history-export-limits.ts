import {
  HISTORY_EXPORT_BUSY_RETRY_SECONDS,
  HISTORY_EXPORT_LEASE_SECONDS,
  HISTORY_EXPORTS_AT_ONCE,
  RATE_LIMITS,
  server as msg,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { releaseRunningExport, takeRunningExport } from './history-export.repo.js';

/**
 * What one user may ask of the history export: RATE_LIMITS.historyExportPerUser
 * exports per window, and HISTORY_EXPORTS_AT_ONCE running at once. Both live in PostgreSQL's
 * rate_limits table, so instances sharing a database share them, and both are checked before
 * a byte of the export is sent.
 */

export const exportRateKey = (userId: string) => `history-export:user:${userId}`;
export const exportRunningKey = (userId: string) => `history-export-running:user:${userId}`;

/** Gives the slot back; safe to call more than once (only the first call counts). */
export type ReleaseSlot = () => Promise<void>;

/**
 * Takes one of the user's running-export slots in one statement (`hits` counts the exports
 * running), or answers 429 with Retry-After while HISTORY_EXPORTS_AT_ONCE already run. Each
 * start renews the row's lease: a count left by an instance that crashed mid-export lapses
 * HISTORY_EXPORT_LEASE_SECONDS after the last start, and the next start counts from 1 again.
 */
export async function takeExportSlot(ctx: AppContext, userId: string): Promise<ReleaseSlot> {
  const key = exportRunningKey(userId);
  const took = await takeRunningExport(
    ctx.db,
    key,
    HISTORY_EXPORTS_AT_ONCE,
    HISTORY_EXPORT_LEASE_SECONDS,
  );
  if (!took) {
    throw new AppError(429, msg.historyExportRunning, {
      'retry-after': String(HISTORY_EXPORT_BUSY_RETRY_SECONDS),
    });
  }
  let released: Promise<void> | undefined;
  return () => (released ??= releaseRunningExport(ctx.db, key));
}

/**
 * Counts one export against the user's window (atomic, ctx.rateLimiter); past the limit, 429
 * with the export's own message and the limiter's Retry-After.
 */
export async function countExport(ctx: AppContext, userId: string): Promise<void> {
  try {
    await ctx.rateLimiter.consume([[exportRateKey(userId), RATE_LIMITS.historyExportPerUser]]);
  } catch (err) {
    if (err instanceof AppError && err.status === 429) {
      throw new AppError(429, msg.historyExportTooMany, err.headers);
    }
    throw err;
  }
}
