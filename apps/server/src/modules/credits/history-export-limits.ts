import { sql } from 'kysely';
import {
  HISTORY_EXPORT_BUSY_RETRY_SECONDS,
  HISTORY_EXPORT_LEASE_SECONDS,
  HISTORY_EXPORTS_AT_ONCE,
  RATE_LIMITS,
  server as msg,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';

/**
 * What one user may ask of the history export (issue 11): RATE_LIMITS.historyExportPerUser
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
  const stale = sql<boolean>`rate_limits.window_start < now() - make_interval(secs => ${HISTORY_EXPORT_LEASE_SECONDS})`;
  const { rows } = await sql<{ hits: number }>`
    INSERT INTO rate_limits (key, hits, window_start) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN ${stale} THEN 1 ELSE rate_limits.hits + 1 END,
      window_start = now()
    WHERE ${stale} OR rate_limits.hits < ${HISTORY_EXPORTS_AT_ONCE}
    RETURNING hits`.execute(ctx.db);
  if (!rows.length) {
    throw new AppError(429, msg.historyExportRunning, {
      'retry-after': String(HISTORY_EXPORT_BUSY_RETRY_SECONDS),
    });
  }
  let released: Promise<void> | undefined;
  return () =>
    (released ??= sql`
      UPDATE rate_limits SET hits = greatest(hits - 1, 0) WHERE key = ${key}`
      .execute(ctx.db)
      .then(() => undefined));
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
