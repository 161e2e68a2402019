import { RATE_LIMITS } from '@herald/contract';
import type { Db } from '../db/database.js';
import { tooMany } from '../lib/app-error.js';
import { deleteKeys, deleteOlderThan, hit, refundHits } from './rate-limit.repo.js';

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

/** Where a key stands after one counted attempt: what the RateLimit-* headers tell. */
export interface Quota {
  limit: number;
  remaining: number;
  /** Seconds until the window ends (or the next drain): Retry-After when refused. */
  resetSeconds: number;
  refused: boolean;
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
      const row = await hit(this.db, key, limit);
      if (row.hits > limit.max) {
        const span = limit.leaky ? limit.windowSeconds / limit.max : limit.windowSeconds;
        retryAfter = Math.max(retryAfter, Math.ceil(span - row.age), 1);
      }
    }
    if (retryAfter) throw tooMany(retryAfter);
  }

  /**
   * Counts one attempt against one key and answers where it stands, refused or not, so the
   * caller can tell the client its quota (the API keys' RateLimit-* headers, docs/api.md).
   */
  async quota(key: string, limit: Limit): Promise<Quota> {
    const row = await hit(this.db, key, limit);
    const span = limit.leaky ? limit.windowSeconds / limit.max : limit.windowSeconds;
    return {
      limit: limit.max,
      remaining: Math.max(limit.max - row.hits, 0),
      resetSeconds: Math.max(Math.ceil(span - row.age), 1),
      refused: row.hits > limit.max,
    };
  }

  /** Gives back one counted attempt per key: for an attempt that turned out legitimate. */
  async refund(keys: string[]): Promise<void> {
    if (!keys.length) return;
    await refundHits(this.db, keys);
  }

  async reset(keys: string[]): Promise<void> {
    if (keys.length) await deleteKeys(this.db, keys);
  }

  /**
   * Deletes counters whose window has run out for every limit: such a row refuses nothing and
   * the next hit starts a new window anyway, so removing it changes no answer.
   */
  async prune(): Promise<number> {
    return deleteOlderThan(this.db, LONGEST_WINDOW_SECONDS);
  }
}
