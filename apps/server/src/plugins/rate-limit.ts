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
 * `check` refuses once a key reached its limit; `hit` counts one more attempt.
 */
export class RateLimiter {
  constructor(private readonly db: Db) {}

  /** Throws 429 when any of the keys is at its limit in the current window. */
  async check(entries: [key: string, limit: Limit][]): Promise<void> {
    const keys = entries.map(([k]) => k);
    const rows = await this.db
      .selectFrom('rate_limits')
      .select(['key', 'hits', sql<number>`extract(epoch from now() - window_start)`.as('age')])
      .where('key', 'in', keys)
      .execute();
    for (const row of rows) {
      const limit = entries.find(([k]) => k === row.key)?.[1];
      if (limit && row.age < limit.windowSeconds && row.hits >= limit.max) {
        throw tooMany(Math.max(1, Math.ceil(limit.windowSeconds - row.age)));
      }
    }
  }

  /** Counts one attempt against each key (a new window starts when the old one ran out). */
  async hit(entries: [key: string, limit: Limit][]): Promise<void> {
    for (const [key, limit] of entries) {
      const window = `${limit.windowSeconds} seconds`;
      await sql`
        INSERT INTO rate_limits (key, hits, window_start) VALUES (${key}, 1, now())
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN rate_limits.window_start < now() - ${window}::interval
                      THEN 1 ELSE rate_limits.hits + 1 END,
          window_start = CASE WHEN rate_limits.window_start < now() - ${window}::interval
                      THEN now() ELSE rate_limits.window_start END`.execute(this.db);
    }
  }

  /** check + hit in one call, for limits that count every attempt. */
  async consume(entries: [key: string, limit: Limit][]): Promise<void> {
    await this.check(entries);
    await this.hit(entries);
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
