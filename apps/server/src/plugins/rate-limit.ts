import { sql } from 'kysely';
import { RATE_LIMITS } from '@herald/contract';
import type { Db } from '../db/database.js';
import { tooMany } from '../lib/app-error.js';

export interface Limit {
  max: number;
  windowSeconds: number;
  /**
   * Leaky bucket instead of a fixed window: one counted attempt drains every windowSeconds / max,
   * so a full key refuses only until the next drain rather than until the window ends.
   */
  leaky?: boolean;
}

/**
 * Every limit the app applies is one of RATE_LIMITS; none counts over a longer window (a leaky
 * bucket stored at most full drains within its window after its last drain).
 */
export const LONGEST_WINDOW_SECONDS = Math.max(
  ...Object.values(RATE_LIMITS).map((l) => l.windowSeconds),
);

type Hit = { hits: number; age: number };

/** Counts one attempt in the key's current fixed window; `age` is the window's age in seconds. */
function windowHit(key: string, limit: Limit) {
  const window = sql`make_interval(secs => ${limit.windowSeconds})`;
  return sql<Hit>`
    INSERT INTO rate_limits (key, hits, window_start) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN rate_limits.window_start < now() - ${window}
                  THEN 1 ELSE LEAST(rate_limits.hits + 1, ${limit.max + 1}) END,
      window_start = CASE WHEN rate_limits.window_start < now() - ${window}
                  THEN now() ELSE rate_limits.window_start END
    RETURNING hits, extract(epoch from now() - window_start)::float8 AS age`;
}

/**
 * Counts one attempt in the key's leaky bucket. `hits` is the level, `window_start` the time of
 * the last drain; the level drops by one per step of windowSeconds / max. A stored max + 1 marks
 * a full bucket whose last attempt was refused: it is read back as max, so a refused attempt
 * takes no place and each drain lets exactly one more attempt in, however many keep knocking.
 * `age` is the time since the last drain, so the next one comes in one step minus `age`.
 */
function leakyHit(key: string, limit: Limit) {
  const step = limit.windowSeconds / limit.max;
  // now() is each statement's transaction start: a burst's statements take the row lock in
  // another order than they started, so one may find a drain time later than its own now().
  // Unclamped, that drain was -1 and moved the drain time a step back: one attempt too many.
  const drained = sql`GREATEST(floor(extract(epoch from now() - rate_limits.window_start)::float8 / ${step}::float8)::int, 0)`;
  const level = sql`LEAST(rate_limits.hits, ${limit.max}::int) - ${drained}`;
  return sql<Hit>`
    INSERT INTO rate_limits (key, hits, window_start) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      hits = LEAST(GREATEST(${level}, 0) + 1, ${limit.max + 1}::int),
      window_start = CASE WHEN ${level} <= 0 THEN now()
                  ELSE rate_limits.window_start + make_interval(secs => ${drained} * ${step}::float8) END
    RETURNING hits, extract(epoch from now() - window_start)::float8 AS age`;
}

/**
 * Fixed-window (or leaky-bucket) counters in PostgreSQL, so every server instance on one database
 * shares them.
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
      const { rows } = await (limit.leaky ? leakyHit : windowHit)(key, limit).execute(this.db);
      const row = rows[0]!;
      if (row.hits > limit.max) {
        const span = limit.leaky ? limit.windowSeconds / limit.max : limit.windowSeconds;
        retryAfter = Math.max(retryAfter, Math.ceil(span - row.age), 1);
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
