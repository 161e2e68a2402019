import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../../db/database.js';
import { PRESENCE_LOCK_SPACE } from './presence.repo.js';

/**
 * The dispatcher's queries about a campaign's sending as a whole: what is left
 * after a slice, ending it, waiting for the next day, and the watchdog's search for campaigns
 * whose instance stopped, and the rows a dead instance held.
 */

/** What is left of a campaign's sending, to decide when its next slice runs. */
export interface Remaining {
  /** Rows the first pass has not claimed, or retries due, or rows given back: work now. */
  workNow: boolean;
  /** The earliest queued retry. */
  nextRetryAt: Date | null;
  /**
   * The earliest `next_attempt_at` of a row still `sending`: one a dead instance held, given
   * back by releaseOrphans (due at once). Claimed rows have none.
   */
  givenBackAt: Date | null;
}

/**
 * `closed`: the campaign's zones in quiet hours now (docs/delivery.md, Quiet hours): their
 * retries are not work now. (Their first-pass numbers are behind the cursor already: a
 * filtered claim moves it past them.)
 */
export async function remainingWork(
  db: DbOrTx,
  campaignId: string,
  closed: readonly number[] = [],
): Promise<Remaining> {
  const open = closed.length === 0 ? sql`` : sql` AND r.zone <> ALL(${[...closed]}::smallint[])`;
  const { rows } = await sql<{
    unclaimed: boolean;
    next_retry: Date | null;
    given_back: Date | null;
  }>`
    SELECT
      -- The next unclaimed row after the cursor, through the primary key (an EXISTS here
      -- was planned as a scan of the whole table: 33 ms per slice over 900k rows).
      (SELECT r.phone FROM campaign_recipients r
       WHERE r.campaign_id = c.id AND r.phone > coalesce(c.dispatch_cursor, '')
         AND r.state IS NULL
       ORDER BY r.campaign_id, r.phone LIMIT 1) IS NOT NULL AS unclaimed,
      (SELECT min(next_attempt_at) FROM campaign_recipients r
       WHERE r.campaign_id = c.id AND r.next_attempt_at IS NOT NULL
         AND r.state = 'queued'${open}) AS next_retry,
      (SELECT min(next_attempt_at) FROM campaign_recipients r
       WHERE r.campaign_id = c.id AND r.next_attempt_at IS NOT NULL
         AND r.state = 'sending'${open}) AS given_back
    FROM campaigns c WHERE c.id = ${campaignId}::uuid`.execute(db);
  const r = rows[0];
  if (!r) return { workNow: false, nextRetryAt: null, givenBackAt: null };
  const now = Date.now();
  const due = (d: Date | null) => d !== null && d.getTime() <= now;
  return {
    workNow: r.unclaimed || due(r.next_retry) || due(r.given_back),
    nextRetryAt: r.next_retry,
    givenBackAt: r.given_back,
  };
}

/**
 * Whether recipients in the `closed` zones wait for their quiet hours to end: first-pass
 * numbers a filtered claim passed over (`dispatch_held_from`, quiet-claim.sql.ts), or retries
 * and rows given back in those zones (through the `next_attempt_at` index, few rows).
 */
export async function heldByQuietHours(
  db: DbOrTx,
  campaignId: string,
  closed: readonly number[],
): Promise<boolean> {
  if (closed.length === 0) return false;
  const { rows } = await sql<{ held: boolean }>`
    SELECT c.dispatch_held_from IS NOT NULL OR EXISTS (
      SELECT 1 FROM campaign_recipients r
      WHERE r.campaign_id = c.id AND r.next_attempt_at IS NOT NULL
        AND r.state IN ('queued', 'sending') AND r.zone = ANY(${[...closed]}::smallint[])
    ) AS held
    FROM campaigns c WHERE c.id = ${campaignId}::uuid`.execute(db);
  return rows[0]?.held ?? false;
}

/**
 * Ends a running campaign's sending when nothing is left to claim or in flight (checked
 * under the campaign's lock, after any claim that was in progress). Returns whether it did.
 */
export async function markDoneIfFinished(tx: Tx, campaignId: string): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    UPDATE campaigns c SET dispatch_state = 'done', dispatch_heartbeat_at = now()
    WHERE c.id = ${campaignId}::uuid AND c.dispatch_state = 'running'
      AND NOT EXISTS (SELECT 1 FROM campaign_recipients r
                      WHERE r.campaign_id = c.id
                        AND (r.state IS NULL OR r.state IN ('queued', 'sending')))
    RETURNING c.id`.execute(tx);
  return rows.length > 0;
}

/**
 * Row-locks the campaign for the rest of the transaction (FOR UPDATE): a claim in progress
 * commits first, and none starts before this transaction ends.
 */
export async function lockCampaignRow(tx: Tx, campaignId: string): Promise<void> {
  await tx.selectFrom('campaigns').select('id').where('id', '=', campaignId).forUpdate().execute();
}

/**
 * The campaign waits until `until`, or the next UTC midnight (the sender's daily limit is
 * reached) when not given. `quiet`: it waits because every recipient left is in quiet hours
 * (the screens say so).
 */
export async function markWaiting(
  tx: Tx,
  campaignId: string,
  until?: Date,
  quiet = false,
): Promise<Date | null> {
  const { rows } = await sql<{ resume_at: Date }>`
    UPDATE campaigns SET dispatch_state = 'waiting', dispatch_quiet = ${quiet},
      dispatch_resume_at = coalesce(${until ?? null}::timestamptz,
        (date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day') AT TIME ZONE 'UTC'),
      dispatch_heartbeat_at = now()
    WHERE id = ${campaignId}::uuid AND dispatch_state IN ('running', 'waiting')
    RETURNING dispatch_resume_at AS resume_at`.execute(tx);
  return rows[0]?.resume_at ?? null;
}

export async function touchHeartbeat(db: DbOrTx, campaignId: string): Promise<void> {
  await sql`UPDATE campaigns SET dispatch_heartbeat_at = now() WHERE id = ${campaignId}::uuid`.execute(
    db,
  );
}

/**
 * Campaigns whose sending stalled: Processing and running (or waiting whose time came), no
 * heartbeat for `staleMs`, and no live job of theirs: one waiting, or one a worker took less
 * than `staleMs` ago. A slice lasts seconds and touches the heartbeat at every claim, so a
 * job locked that long while the campaign claimed nothing is a killed instance's (a hung one's
 * lane simply gets a second job: claims are exclusive, nothing is sent twice).
 */
export async function stalledCampaigns(db: DbOrTx, staleMs: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT c.id FROM campaigns c
    WHERE c.status = 'Processing'
      AND (c.dispatch_state = 'running'
           OR (c.dispatch_state = 'waiting' AND c.dispatch_resume_at <= now()))
      AND coalesce(c.dispatch_heartbeat_at, '-infinity') < now() - make_interval(secs => ${staleMs / 1000})
      AND NOT EXISTS (
        SELECT 1 FROM graphile_worker.jobs j
        WHERE j.key LIKE 'delivery-dispatch:' || c.id || ':%'
          AND j.attempts < j.max_attempts
          AND (j.locked_at IS NULL
               OR j.locked_at > now() - make_interval(secs => ${staleMs / 1000})))`.execute(db);
  return rows.map((r) => r.id);
}

/**
 * The newest heartbeat of a campaign being sent, when it is younger than `staleMs`: a runner
 * starting after a crash asks for a watchdog run once that heartbeat has gone stale.
 */
export async function freshestHeartbeat(db: DbOrTx, staleMs: number): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    SELECT max(dispatch_heartbeat_at) AS at FROM campaigns
    WHERE status = 'Processing' AND dispatch_state = 'running'
      AND dispatch_heartbeat_at > now() - make_interval(secs => ${staleMs / 1000})`.execute(db);
  return rows[0]?.at ?? null;
}

/** The presence keys some session holds now (presence.ts): live instances. */
const HELD_KEYS = sql`
  SELECT objid::bigint AS key FROM pg_locks
  WHERE locktype = 'advisory' AND classid = ${PRESENCE_LOCK_SPACE}::bigint::oid
    AND objsubid = 2 AND granted
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

/**
 * Gives back, due now, the rows left `sending` by instances that are gone: claimed under a
 * presence key whose advisory lock no session holds (presence.ts), in one campaign or in every
 * campaign being sent. Their sends were in flight when the instance died (their results never
 * written), so sending them again costs at most the in-flight duplicates. The dead key's
 * (campaign, key) pairs in `dispatch_claimers` lead to them (a pass over that campaign's rows,
 * after a crash only), and go in the same statement. Answers the campaigns that had such rows,
 * and those a dead key was sending with none in flight (killed while its slices waited for
 * tokens, or between two sends): its worker may hold the campaign's next lane job, which would
 * otherwise count as live until STALL_MS passed.
 */
export async function releaseOrphans(db: DbOrTx, campaignId?: string): Promise<string[]> {
  const { rows } = await sql<{ campaign_id: string }>`
    WITH held AS (${HELD_KEYS}), sending AS (
      SELECT id FROM campaigns
      WHERE status = 'Processing' AND dispatch_state IN ('running', 'waiting', 'paused')
        AND (${campaignId ?? null}::uuid IS NULL OR id = ${campaignId ?? null}::uuid)
    ), dead AS (
      DELETE FROM dispatch_claimers d
      WHERE d.campaign_id IN (SELECT id FROM sending)
        AND d.key::bigint NOT IN (SELECT key FROM held)
      RETURNING d.campaign_id, d.key
    ), given_back AS (
      UPDATE campaign_recipients r SET next_attempt_at = now()
      FROM dead
      WHERE r.campaign_id = dead.campaign_id AND r.claimed_by = dead.key
        AND r.state = 'sending' AND r.next_attempt_at IS NULL
      RETURNING r.campaign_id
    )
    SELECT campaign_id FROM given_back UNION SELECT campaign_id FROM dead`.execute(db);
  return rows.map((r) => r.campaign_id);
}

/**
 * Rows left `sending` by a dead instance in a campaign that stopped sending meanwhile (an
 * Admin's cancel, or the end of its sending): nobody sends them again, and settlement
 * (settle/finalize.ts) waits while rows are in flight, so without this the campaign would never
 * be settled and its unsent credits never refunded. Such a row becomes unsent (`queued`, no due
 * time) and is refunded as unsent: a send that did leave before the crash and is reported later
 * stays refunded (settle/delivery-report.repo.ts's rule for late events). The rows are those of
 * a key no session holds, found as releaseOrphans finds them, and those releaseOrphans already
 * gave back (due, still `sending`) before the campaign stopped. Answers the campaigns to settle.
 */
export async function releaseStoppedOrphans(db: DbOrTx): Promise<string[]> {
  const { rows } = await sql<{ campaign_id: string }>`
    WITH held AS (${HELD_KEYS}), stopped AS (
      SELECT id FROM campaigns
      WHERE dispatch_state IN ('cancelled', 'done') AND NOT delivery_settled
    ), dead AS (
      DELETE FROM dispatch_claimers d
      WHERE d.campaign_id IN (SELECT id FROM stopped)
        AND d.key::bigint NOT IN (SELECT key FROM held)
      RETURNING d.campaign_id, d.key
    ), dead_rows AS (
      UPDATE campaign_recipients r SET state = 'queued', next_attempt_at = NULL, state_at = now()
      FROM dead
      WHERE r.campaign_id = dead.campaign_id AND r.claimed_by = dead.key
        AND r.state = 'sending' AND r.next_attempt_at IS NULL
      RETURNING r.campaign_id
    ), given_back AS (
      UPDATE campaign_recipients r SET state = 'queued', next_attempt_at = NULL, state_at = now()
      WHERE r.campaign_id IN (SELECT id FROM stopped)
        AND r.state = 'sending' AND r.next_attempt_at <= now()
      RETURNING r.campaign_id
    )
    SELECT campaign_id FROM dead_rows UNION SELECT campaign_id FROM given_back`.execute(db);
  return rows.map((r) => r.campaign_id);
}
