import { sql } from 'kysely';
import type { Db, DbOrTx } from '../../../db/database.js';

/**
 * A sender's rate and daily limit, shared by every instance. The token bucket lives
 * in the `senders` row: a take locks that row, refills it at rate_per_second (at most
 * BURST_SECONDS worth, so a burst never outruns a provider's own short bucket), hands out what
 * it holds and, in the same transaction, reserves the grant in today's `sender_daily_usage`
 * row. Usage is read after the lock is held, so two instances can never both see room for the
 * last messages of the day. Sends that did not go out are given back (`giveBack`).
 */

/**
 * The bucket holds at most this many seconds of the sender's rate: half of the provider's own
 * (the simulator's is 0.1 s, like WhatsApp's short window), so sends that a busy machine
 * delays and that then arrive together with the next grant's still fit the provider's burst.
 */
export const BURST_SECONDS = 0.05;
/**
 * A grant waits until the bucket holds this share of the batch asked for, then takes what is
 * there (up to the batch): waiting for a whole bucket lost the tokens that refilled while the
 * next take was on its way.
 */
export const MIN_GRANT_SHARE = 0.75;
/** A rate-limit answer without Retry-After slows the sender for this long. */
export const DEFAULT_THROTTLE_MS = 250;

export interface Grant {
  granted: number;
  /** When nothing was granted: how long until the tokens (or the end of a throttle) are due. */
  waitMs: number;
  /** The sender's daily limit is reached: nothing more until the next UTC day. */
  dailyExhausted: boolean;
  /** The UTC day the grant was counted on ('YYYY-MM-DD'), for `giveBack`. */
  day: string;
}

/** Tokens the bucket of a sender with this rate can hold. */
export function bucketCapacity(ratePerSecond: number): number {
  return Math.max(1, Math.floor(ratePerSecond * BURST_SECONDS));
}

interface LockedSender {
  rate: number;
  daily_limit: number | null;
  tokens: number;
  elapsed: number;
  throttled_ms: number | null;
  at: Date;
  day: string;
}

/**
 * Takes up to `want` tokens (at most the bucket's capacity, or what is left of the day), and at
 * least MIN_GRANT_SHARE of that, from the sender's bucket and daily allowance, or none and says
 * how long to wait.
 */
export async function takeTokens(db: Db, senderId: string, want: number): Promise<Grant> {
  return (await takeUnlimited(db, senderId, want)) ?? takeLimited(db, senderId, want);
}

/**
 * The common case, a sender without a daily limit, in one statement (one round trip per
 * batch): the row lock, the refill, the grant and the day's count together. Answers null,
 * changing nothing, for a sender with a daily limit.
 */
async function takeUnlimited(db: Db, senderId: string, want: number): Promise<Grant | null> {
  const { rows } = await sql<{
    limited: boolean;
    granted: number;
    short: number;
    rate: number;
    throttled_ms: number | null;
    day: string;
  }>`
    WITH s AS (
      SELECT id, rate_per_second AS rate, daily_limit IS NOT NULL AS limited, clock_timestamp() AS at,
             least(greatest(1, floor(rate_per_second * ${BURST_SECONDS}::float8)),
                   bucket_tokens + rate_per_second
                     * greatest(0, extract(epoch FROM clock_timestamp() - bucket_at))::float8) AS avail,
             least(${want}::int, greatest(1, floor(rate_per_second * ${BURST_SECONDS}::float8)))::int AS target,
             (extract(epoch FROM throttled_until - clock_timestamp()) * 1000)::float8 AS throttled_ms
      FROM senders WHERE id = ${senderId}::uuid FOR UPDATE
    ), g AS (
      SELECT s.*, CASE WHEN NOT limited AND coalesce(throttled_ms <= 0, true)
                        AND floor(avail) >= ceil(target * ${MIN_GRANT_SHARE}::float8)
                       THEN least(target, floor(avail))::int ELSE 0 END AS granted
      FROM s
    ), b AS (
      UPDATE senders t
      SET bucket_tokens = CASE WHEN coalesce(g.throttled_ms > 0, false) THEN 0
                               ELSE g.avail - g.granted END,
          bucket_at = g.at
      FROM g WHERE t.id = g.id AND NOT g.limited
    ), d AS (
      INSERT INTO sender_daily_usage AS u (sender_id, day, sent)
      SELECT g.id, (g.at AT TIME ZONE 'UTC')::date, g.granted FROM g WHERE g.granted > 0
      ON CONFLICT (sender_id, day) DO UPDATE SET sent = u.sent + EXCLUDED.sent
    )
    SELECT limited, granted, (ceil(target * ${MIN_GRANT_SHARE}::float8) - avail)::float8 AS short,
           rate, throttled_ms,
           to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
    FROM g`.execute(db);
  const r = rows[0];
  if (!r) throw new Error(`sender ${senderId} is gone`);
  if (r.limited) return null;
  const throttled = r.throttled_ms !== null && r.throttled_ms > 0;
  let waitMs = 1;
  if (r.granted === 0) {
    waitMs = throttled ? (r.throttled_ms ?? 0) : Math.ceil((Math.max(0, r.short) / r.rate) * 1000);
  }
  return { granted: r.granted, waitMs: Math.max(1, waitMs), dailyExhausted: false, day: r.day };
}

/** A sender with a daily limit: the day's count is read once the sender's row is locked. */
function takeLimited(db: Db, senderId: string, want: number): Promise<Grant> {
  return db.transaction().execute(async (tx) => {
    const { rows } = await sql<LockedSender>`
      SELECT rate_per_second AS rate, daily_limit, bucket_tokens AS tokens,
             greatest(0, extract(epoch FROM clock_timestamp() - bucket_at))::float8 AS elapsed,
             (extract(epoch FROM throttled_until - clock_timestamp()) * 1000)::float8 AS throttled_ms,
             clock_timestamp() AS at,
             to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
      FROM senders WHERE id = ${senderId}::uuid FOR UPDATE`.execute(tx);
    const s = rows[0];
    if (!s) throw new Error(`sender ${senderId} is gone`);
    const capacity = bucketCapacity(s.rate);
    const available = Math.min(capacity, s.tokens + s.rate * s.elapsed);
    const throttled = s.throttled_ms !== null && s.throttled_ms > 0;

    let room = Infinity;
    if (s.daily_limit !== null) {
      // A fresh statement under the sender's lock sees every earlier grant of today.
      const used = await tx
        .selectFrom('sender_daily_usage')
        .select('sent')
        .where('sender_id', '=', senderId)
        .where('day', '=', sql<Date>`${s.day}::date`)
        .executeTakeFirst();
      room = Math.max(0, s.daily_limit - (used?.sent ?? 0));
    }
    // A grant waits for most of the batch asked for (or of the day's rest), so batches stay large.
    const target = Math.min(want, capacity, room);
    const least = Math.ceil(target * MIN_GRANT_SHARE);
    const granted =
      !throttled && target > 0 && Math.floor(available) >= least
        ? Math.min(target, Math.floor(available))
        : 0;
    await tx
      .updateTable('senders')
      .set({ bucket_tokens: throttled ? 0 : available - granted, bucket_at: s.at })
      .where('id', '=', senderId)
      .execute();
    if (granted > 0) {
      await sql`
        INSERT INTO sender_daily_usage AS u (sender_id, day, sent)
        VALUES (${senderId}::uuid, ${s.day}::date, ${granted})
        ON CONFLICT (sender_id, day) DO UPDATE SET sent = u.sent + EXCLUDED.sent`.execute(tx);
    }
    const dailyExhausted = room === 0;
    let waitMs = 0;
    if (granted === 0 && !dailyExhausted) {
      waitMs = throttled ? (s.throttled_ms ?? 0) : Math.ceil(((least - available) / s.rate) * 1000);
    }
    return { granted, waitMs: Math.max(1, waitMs), dailyExhausted, day: s.day };
  });
}

/**
 * Gives back what a grant did not use: `tokens` to the bucket (claimed fewer rows than
 * granted) and `usage` to the day's count (sends the provider did not accept).
 */
export async function giveBack(
  db: DbOrTx,
  senderId: string,
  day: string,
  back: { tokens: number; usage: number },
): Promise<void> {
  if (back.tokens > 0) {
    await sql`
      UPDATE senders
      SET bucket_tokens = least(bucket_tokens + ${back.tokens},
                                greatest(1, floor(rate_per_second * ${BURST_SECONDS}::float8)))
      WHERE id = ${senderId}::uuid AND (throttled_until IS NULL OR throttled_until <= now())`.execute(
      db,
    );
  }
  if (back.usage > 0) {
    await sql`
      UPDATE sender_daily_usage SET sent = greatest(0, sent - ${back.usage})
      WHERE sender_id = ${senderId}::uuid AND day = ${day}::date`.execute(db);
  }
}

/**
 * The provider answered "too fast" (HTTP 429 / WhatsApp 130429): the bucket is emptied and
 * every instance stops taking from it until the provider's Retry-After (or a short pause).
 */
export async function throttleSender(
  db: DbOrTx,
  senderId: string,
  retryAfterMs: number = DEFAULT_THROTTLE_MS,
): Promise<void> {
  await sql`
    UPDATE senders
    SET bucket_tokens = 0, bucket_at = clock_timestamp(),
        throttled_until = greatest(coalesce(throttled_until, clock_timestamp()),
                                   clock_timestamp() + make_interval(secs => ${retryAfterMs / 1000}))
    WHERE id = ${senderId}::uuid`.execute(db);
}

/** The next UTC midnight after `now`: when a sender's daily allowance opens again. */
export function nextUtcMidnight(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}
