import type { StoredProvider } from '../providers/stored-provider.js';
import { sql } from 'kysely';
import type { CampaignStatus, CampaignTemplate, CreditType, DispatchState } from '@herald/contract';
import type { Db, DbOrTx, Tx } from '../../../db/database.js';
import { suppressedAmong } from '../../suppressions/index.js';
import { counterShard } from '../counter-shards.sql.js';
import type { QuietMinutes } from '../../quiet-hours/index.js';
import { quietClaim, type QuietClaim } from './quiet-claim.sql.js';

/**
 * The dispatcher's queries: what a slice needs to send, claiming recipients and writing what
 * the provider answered. The recipient row is the source of truth; a claim moves rows to
 * `sending` (attempts + 1, with the claiming instance's presence key) under the campaign's row
 * lock, so a pause, which takes the same lock, is seen by the very next claim on every instance.
 *
 * A claimed row holds no lease: it is its key's until the key's instance is gone (presence.ts),
 * and `next_attempt_at` stays NULL. That column's index (migration 17) is the only one a claim
 * could touch, so the common path (NULL -> sending -> sent) changes no indexed column and both
 * updates are HOT, instead of two new index entries per message. The rows of a key are found
 * through `dispatch_claimers` (migration 21), written by the claim itself: a (campaign, key)
 * pair stays there until the key's session closes with every row written, or until
 * releaseOrphans gives the rows of a dead key back (due now, in the index again). See
 * docs/delivery.md, Claims and batches.
 */

/** What a dispatch slice sends with, read once per slice. */
export interface DispatchCampaign {
  id: string;
  status: CampaignStatus;
  dispatch_state: DispatchState | null;
  credit_type: CreditType;
  message: string;
  cta_call: string | null;
  cta_call_text: string | null;
  cta_url: string | null;
  cta_url_text: string | null;
  template: CampaignTemplate | null;
  sender_id: string | null;
  rate_per_second: number | null;
  /** The sender's provider-side address and its provider's row (null without a sender). */
  address: string | null;
  provider: StoredProvider | null;
  /** The quiet hours captured at start (null: none) and its recipients' zone ids. */
  quiet: QuietMinutes | null;
  zones: number[];
}

export async function loadDispatchCampaign(
  db: DbOrTx,
  id: string,
): Promise<DispatchCampaign | undefined> {
  const row = await db
    .selectFrom('campaigns as c')
    .leftJoin('senders as s', 's.id', 'c.sender_id')
    .leftJoin('providers as p', 'p.id', 's.provider_id')
    .select([
      'c.id',
      'c.status',
      'c.dispatch_state',
      'c.credit_type',
      'c.message',
      'c.cta_call',
      'c.cta_call_text',
      'c.cta_url',
      'c.cta_url_text',
      'c.template',
      'c.sender_id',
      's.rate_per_second',
      's.address',
      'p.id as provider_id',
      'p.key',
      'p.kind',
      'p.builtin',
      'p.enabled',
      'p.settings',
      'p.secrets',
      'p.callback_token',
      'p.updated_at',
      'c.quiet_start',
      'c.quiet_end',
      'c.recipient_zones',
    ])
    .where('c.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { provider_id, key, kind, builtin, enabled, settings, secrets, callback_token } = row;
  const provider =
    provider_id === null || key === null || kind === null || row.updated_at === null
      ? null
      : {
          id: provider_id,
          key,
          kind,
          builtin: builtin === true,
          enabled: enabled === true,
          settings: settings ?? {},
          secrets: secrets ?? {},
          callback_token,
          updated_at: row.updated_at,
        };
  return {
    id: row.id,
    status: row.status,
    dispatch_state: row.dispatch_state,
    credit_type: row.credit_type,
    message: row.message,
    cta_call: row.cta_call,
    cta_call_text: row.cta_call_text,
    cta_url: row.cta_url,
    cta_url_text: row.cta_url_text,
    template: row.template,
    sender_id: row.sender_id,
    rate_per_second: row.rate_per_second,
    address: row.address,
    provider,
    quiet:
      row.quiet_start === null || row.quiet_end === null
        ? null
        : { start: row.quiet_start, end: row.quiet_end },
    // Rows written before zones were (migration 0040) hold the default, id 0.
    zones: row.recipient_zones ?? [0],
  };
}

export function mediaOf(db: DbOrTx, campaignId: string) {
  return db
    .selectFrom('campaign_files')
    .select(['kind', 'stored_name', 'mime'])
    .where('campaign_id', '=', campaignId)
    .orderBy('kind')
    .orderBy('position')
    .execute();
}

/** A claimed recipient: its number and the attempt this send is. */
export interface Claimed {
  phone: string;
  attempts: number;
}

/**
 * A claim's outcome. `optedOut`: picked rows found on the owner's suppression list, ended as
 * `opted_out` by the claim itself, never to be sent (not in `rows`).
 */
export type Claim = { stopped: true } | { stopped: false; rows: Claimed[]; optedOut: number };

/**
 * Claims up to `limit` recipients under this instance's presence `key` (presence.ts): rows
 * whose time came first (due retries, and rows a dead instance held, given back by
 * releaseOrphans), then the first pass after the keyset cursor. Stops (claims nothing) unless
 * the campaign is Processing and running; a waiting campaign whose time came becomes running
 * here. A picked number on the campaign owner's suppression list ends `opted_out` instead of
 * being claimed (docs/delivery.md, Opt-outs).
 *
 * One statement (in a transaction of its own only for claimBatchIn's planner setting). It
 * takes the campaign's row lock (FOR NO KEY UPDATE: the statement updates the row's cursor and
 * heartbeat, and inserts that reference the campaign are not held up), which a pause or cancel
 * also takes (dispatch-control.service.ts):
 * - a claim waiting behind a pause re-reads the campaign once the pause committed and claims
 *   nothing; any claim after that commit sees it. A shared lock would not do: a claim whose
 *   snapshot predates the pause would still claim after it.
 * - claims of one campaign follow one another, so the cursor only ever moves past rows whose
 *   claim committed. Recipient rows are taken with SKIP LOCKED, so two claims never hand out
 *   one phone whatever the order; but a cursor moved by a claim racing another one that then
 *   failed (its client killed mid-statement) would pass rows that stayed unclaimed for good.
 * The lock is held for the statement and its commit only, so claims queue for a few
 * milliseconds at most. The picked rows are updated through `phone = ANY(array)` on the primary
 * key: a join to them was planned, on a campaign new to the planner, as a scan of all its rows.
 */
export async function claimBatch(
  db: Db,
  campaignId: string,
  limit: number,
  key: number,
  quiet?: QuietClaim,
): Promise<Claim> {
  return db.transaction().execute((trx) => claimBatchIn(trx, campaignId, limit, key, quiet));
}

/**
 * claimBatch's statement inside the caller's transaction, planned without bitmap scans. The
 * rows of a campaign are often new when it starts (created, approved, sent within the
 * minute, before autovacuum's first ANALYZE): the planner then guesses a few dozen rows per
 * campaign and finds the next unclaimed ones by a bitmap scan of every row past the cursor and a
 * sort, which costs each claim the whole rest of the campaign (30-100 ms at 100k recipients,
 * seconds at 1M). Without bitmap scans the primary key is walked from the cursor in order and
 * stops at the batch, whatever the statistics say. SET LOCAL ends with the transaction.
 */
export async function claimBatchIn(
  trx: Tx,
  campaignId: string,
  limit: number,
  key: number,
  quiet?: QuietClaim,
): Promise<Claim> {
  await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
  const rows = await claimRows(trx, campaignId, limit, key, quiet);
  if (rows.length === 1 && rows[0]!.phone === null) return { stopped: true };
  // Every other row is a claimed one (phone and attempts set), or one opted out by the claim.
  const claimed: Claimed[] = [];
  let optedOut = 0;
  for (const r of rows) {
    if (r.state === 'opted_out') optedOut++;
    else claimed.push({ phone: r.phone as string, attempts: r.attempts as number });
  }
  return { stopped: false, rows: claimed, optedOut };
}

interface ClaimRow {
  phone: string | null;
  attempts: number | null;
  /** 'sending', or 'opted_out' for a number on the owner's suppression list (never sent). */
  state: 'sending' | 'opted_out' | null;
}

async function claimRows(
  db: DbOrTx,
  campaignId: string,
  limit: number,
  key: number,
  quiet?: QuietClaim,
): Promise<ClaimRow[]> {
  // With quiet hours the statement gains the fragments of quiet-claim.sql.ts; without, every
  // fragment is empty and the statement is the one it always was.
  const q = quietClaim(campaignId, limit, quiet);
  // No lease: `next_attempt_at` stays (or becomes) NULL, so a first claim changes no indexed
  // column and is a HOT update, and so is the write of its 'sent' answer. A picked number on
  // the owner's suppression list (`opted`) ends opted_out instead, its attempt not counted
  // (docs/delivery.md, Opt-outs).
  const isOpted = sql`r.phone IN (SELECT phone FROM opted)`;
  const claim = sql`state = CASE WHEN ${isOpted} THEN 'opted_out' ELSE 'sending' END,
    attempts = CASE WHEN ${isOpted} THEN r.attempts ELSE r.attempts + 1 END, state_at = now(),
    next_attempt_at = NULL, claimed_by = ${key}::int`;
  const picked = sql`ARRAY(SELECT phone FROM due_pick UNION ALL SELECT phone FROM fresh_pick)`;
  const { rows } = await sql<ClaimRow>`
    WITH camp AS MATERIALIZED (
      SELECT id, user_id, ${q.campCursor} FROM campaigns
      WHERE id = ${campaignId}::uuid AND status = 'Processing'
        AND (dispatch_state = 'running'
             OR (dispatch_state = 'waiting' AND coalesce(dispatch_resume_at <= now(), true)))
      FOR NO KEY UPDATE
    ), claimer AS (
      -- Committed with the rows it covers: how a dead key's rows are found (no lease).
      INSERT INTO dispatch_claimers (campaign_id, key)
      SELECT id, ${key}::int FROM camp
      ON CONFLICT DO NOTHING
    ), due_pick AS MATERIALIZED (
      SELECT phone FROM campaign_recipients
      WHERE campaign_id = ${campaignId}::uuid AND next_attempt_at <= now()
        AND state IN ('queued', 'sending') AND EXISTS (SELECT 1 FROM camp)${q.open}
      ORDER BY next_attempt_at LIMIT ${limit}::int
      FOR UPDATE SKIP LOCKED
    ), fresh_pick AS MATERIALIZED (
      -- A constant LIMIT (the batch, less the due rows, is cut by rn): with LIMIT (SELECT
      -- ...) the planner guessed 10% of the table and joined it by a scan of the table.
      SELECT phone, row_number() OVER (ORDER BY phone) AS rn FROM (
        SELECT phone FROM campaign_recipients
        WHERE campaign_id = ${campaignId}::uuid AND state IS NULL
          AND phone > coalesce((SELECT dispatch_cursor FROM camp), '')
          AND EXISTS (SELECT 1 FROM camp)${q.open}
        ORDER BY phone LIMIT ${limit}::int
        FOR UPDATE SKIP LOCKED
      ) x
    )${q.heldPick}, opted AS MATERIALIZED (
      -- The picked numbers the owner suppressed: one probe of its unique index each.
      ${suppressedAmong(sql`(SELECT user_id FROM camp)`, picked)}
    ), due AS (
      UPDATE campaign_recipients r SET ${claim}
      WHERE r.campaign_id = ${campaignId}::uuid
        AND r.phone = ANY(ARRAY(SELECT phone FROM due_pick))
      RETURNING r.phone, r.attempts, r.state
    ), fresh AS (
      UPDATE campaign_recipients r SET ${claim}
      WHERE r.campaign_id = ${campaignId}::uuid
        AND r.phone = ANY(ARRAY(SELECT phone FROM fresh_pick
                                 WHERE rn <= (SELECT ${limit}::int - count(*) FROM due)))
      RETURNING r.phone, r.attempts, r.state
    ), opted_count AS (
      -- Opted out counts with the failed, in this connection's counter shard.
      INSERT INTO campaign_delivery_counts AS k (campaign_id, slot, failed)
      SELECT ${campaignId}::uuid, ${counterShard}, count(*)::int
        FROM (SELECT 1 FROM due WHERE state = 'opted_out'
              UNION ALL SELECT 1 FROM fresh WHERE state = 'opted_out') o
      HAVING count(*) > 0
      ON CONFLICT (campaign_id, slot) DO UPDATE SET failed = k.failed + excluded.failed
    ), moved AS (
      UPDATE campaigns c
      SET ${q.cursorSet},
          dispatch_state = 'running',
          dispatch_resume_at = CASE WHEN c.dispatch_state = 'waiting' THEN NULL
                                    ELSE c.dispatch_resume_at END,
          dispatch_heartbeat_at = now()
      FROM camp WHERE c.id = camp.id
    )
    SELECT phone, attempts, state FROM due
    UNION ALL
    SELECT phone, attempts, state FROM fresh
    UNION ALL
    SELECT NULL, NULL, NULL WHERE NOT EXISTS (SELECT 1 FROM camp)`.execute(db);
  return rows;
}

/** What became of one claimed send. */
export type SendResult =
  | { phone: string; attempts: number; state: 'sent'; providerMessageId: string }
  | {
      phone: string;
      attempts: number;
      state: 'failed';
      code: string;
      text: string;
      /** The provider said the person stopped the sender's messages (error class opted_out). */
      optedOut?: true;
    }
  | {
      phone: string;
      attempts: number;
      state: 'queued';
      code: string;
      text: string;
      retryAt: Date;
      /** False for a sender-wide rate-limit answer, or a campaign paused: that try does not count. */
      counted: boolean;
      /** The provider's answer pauses the whole campaign (error class `pause_campaign`). */
      pauseCampaign?: boolean;
      /** The provider's Retry-After of a rate-limit answer (not stored). */
      throttleMs?: number;
    };

/**
 * Writes a batch's results in one statement: rows still `sending` with the attempt this
 * instance claimed move on (a row a status event already moved, or one claimed again after its
 * key was given up, is left alone), and the campaign's counters move with them, in this
 * connection's counter shard (counter-shards.sql.ts): the campaign row is not locked. The rows are found by
 * `phone = ANY(array)` on the primary key, which no statistics turn into a scan of the whole
 * campaign, as they did the join alone.
 */
export async function writeResults(
  db: DbOrTx,
  campaignId: string,
  results: readonly SendResult[],
  /**
   * For a provider whose status callbacks name messages by its own id only (Jasmin, Twilio):
   * each accepted id is recorded in provider_message_refs by the same statement, so the status
   * path finds its recipient (migration 0030). Null for the others: their statement is as before.
   */
  refsProvider: string | null = null,
): Promise<void> {
  if (results.length === 0) return;
  const col = <T>(f: (r: SendResult) => T) => results.map(f);
  const refs =
    refsProvider === null
      ? sql``
      : sql`, refs AS (
      INSERT INTO provider_message_refs (provider, provider_message_id, campaign_id, phone)
      SELECT ${refsProvider}, r.pid, ${campaignId}::uuid, r.phone FROM r WHERE r.pid IS NOT NULL
      ON CONFLICT DO NOTHING
    )`;
  await sql`
    WITH r AS (
      SELECT * FROM unnest(
        ${col((r) => r.phone)}::text[], ${col((r) => r.attempts)}::int[],
        ${col((r) => r.state)}::text[],
        ${col((r) => (r.state === 'sent' ? r.providerMessageId : null))}::text[],
        ${col((r) => (r.state === 'sent' ? null : r.code))}::text[],
        ${col((r) => (r.state === 'sent' ? null : r.text))}::text[],
        ${col((r) => (r.state === 'queued' ? r.retryAt.toISOString() : null))}::timestamptz[],
        ${col((r) => r.state !== 'queued' || r.counted)}::bool[]
      ) AS r(phone, attempts, state, pid, code, text, retry_at, counted)
    ), u AS (
      UPDATE campaign_recipients c
      SET state = r.state,
          attempts = CASE WHEN r.counted THEN c.attempts ELSE c.attempts - 1 END,
          provider_message_id = coalesce(r.pid, c.provider_message_id),
          error_code = r.code, error_text = r.text,
          next_attempt_at = r.retry_at,
          state_at = now(),
          sent_at = CASE WHEN r.state = 'sent' THEN now() ELSE c.sent_at END,
          failed_at = CASE WHEN r.state = 'failed' THEN now() ELSE c.failed_at END
      FROM r
      WHERE c.campaign_id = ${campaignId}::uuid AND c.phone = ANY(${col((r) => r.phone)}::text[])
        AND c.phone = r.phone AND c.state = 'sending' AND c.attempts = r.attempts
      RETURNING c.state
    )${refs}, n AS (
      SELECT count(*) FILTER (WHERE state = 'sent')::int AS sent,
             count(*) FILTER (WHERE state = 'failed')::int AS failed
        FROM u
    )
    INSERT INTO campaign_delivery_counts AS k (campaign_id, slot, sent, failed)
    SELECT ${campaignId}::uuid, ${counterShard}, n.sent, n.failed FROM n WHERE n.sent + n.failed > 0
    ON CONFLICT (campaign_id, slot)
      DO UPDATE SET sent = k.sent + excluded.sent, failed = k.failed + excluded.failed`.execute(db);
}
