import { sql } from 'kysely';
import { RATE_LIMITS } from '@herald/contract';
import type { Db } from '../db/database.js';
import { tooMany } from '../lib/app-error.js';

export interface Limit {
  max: number;
  windowSeconds: number;
}

/** Every limit the app applies is one of RATE_LIMITS; none counts over a longer window. */
export const LONGEST_WINDOW_SECONDS = Math.max(
  ...Object.values(RATE_LIMITS).map((l) => l.windowSeconds),
);

/**
 * Fixed-window counters in PostgreSQL, so every server instance on one database shares them.
 * Each attempt is checked and counted in one statement per key before any costly work runs:
 * two steps (read, then count after the work) let every request sent at once pass the read
 * before any of them counted, so a burst got as many tries as requests.
 */
export class RateLimiter {
  constructor(private readonly db: Db) {}

  /**
   * Counts one attempt against each key and throws 429 when any key went past its limit in the
   * current window (a new window starts when the old one ran out). Refused attempts count too,
   * capped one past the limit, so a flood keeps the key refused without growing the number.
   */
  async consume(entries: [key: string, limit: Limit][]): Promise<void> {
    let retryAfter = 0;
    for (const [key, limit] of entries) {
      const window = sql`make_interval(secs => ${limit.windowSeconds})`;
      const { rows } = await sql<{ hits: number; age: number }>`
        INSERT INTO rate_limits (key, hits, window_start) VALUES (${key}, 1, now())
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN rate_limits.window_start < now() - ${window}
                      THEN 1 ELSE LEAST(rate_limits.hits + 1, ${limit.max + 1}) END,
          window_start = CASE WHEN rate_limits.window_start < now() - ${window}
                      THEN now() ELSE rate_limits.window_start END
        RETURNING hits, extract(epoch from now() - window_start)::float8 AS age`.execute(this.db);
      const row = rows[0]!;
      if (row.hits > limit.max) {
        retryAfter = Math.max(retryAfter, Math.ceil(limit.windowSeconds - row.age), 1);
      }
    }
    if (retryAfter) throw tooMany(retryAfter);
  }

  /** Gives back one counted attempt per key: for an attempt that turned out legitimate. */
  async refund(keys: string[]): Promise<void> {
    if (!keys.length) return;
    await this.db
      .updateTable('rate_limits')
      .set({ hits: sql`greatest(hits - 1, 0)` })
      .where('key', 'in', keys)
      .execute();
  }

  async reset(keys: string[]): Promise<void> {
    if (keys.length) await this.db.deleteFrom('rate_limits').where('key', 'in', keys).execute();
  }

  /**
   * Deletes counters whose window has run out for every limit: such a row refuses nothing and
   * the next hit starts a new window anyway, so removing it changes no answer.
   */
  async prune(): Promise<number> {
    const result = await this.db
      .deleteFrom('rate_limits')
      .where(
        'window_start',
        '<',
        sql<Date>`now() - make_interval(secs => ${LONGEST_WINDOW_SECONDS})`,
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
