import { sql } from 'kysely';
import type { DbOrTx } from '../db/database.js';
import type { Limit } from './rate-limit.js';

/** The `rate_limits` table's statements, for RateLimiter (rate-limit.ts). */

export type Hit = { hits: number; age: number };

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

/** Counts one attempt against the key (fixed window or leaky bucket) in one statement. */
export async function hit(db: DbOrTx, key: string, limit: Limit): Promise<Hit> {
  const { rows } = await (limit.leaky ? leakyHit : windowHit)(key, limit).execute(db);
  return rows[0]!;
}

/** Gives back one counted attempt per key. */
export async function refundHits(db: DbOrTx, keys: string[]): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ hits: sql`greatest(hits - 1, 0)` })
    .where('key', 'in', keys)
    .execute();
}

export async function deleteKeys(db: DbOrTx, keys: string[]): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', 'in', keys).execute();
}

/** Deletes counters whose window started more than `seconds` ago; answers how many. */
export async function deleteOlderThan(db: DbOrTx, seconds: number): Promise<number> {
  const result = await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
