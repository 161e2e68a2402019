import { sql } from 'kysely';
import {
  DELIVERY_STATES,
  type DeliveryState,
  type DispatchState,
  type StatusEventState,
} from '@herald/contract';
import type { DbOrTx } from '../../../db/database.js';
import { counterShard } from '../counter-shards.sql.js';

/**
 * The status writer's one statement: a whole batch of provider status events is
 * applied by a single UPDATE built from unnested arrays, so a webhook storm costs one round trip
 * per batch, not one per event. Queries only; the writer decides when and in which transaction.
 */

/** One status event whose reference named a recipient row: `${campaignId}:${phone}`. */
export interface RecipientEvent {
  campaignId: string;
  phone: string;
  state: StatusEventState;
  at: Date;
  providerMessageId: string | null;
  errorCode: string | null;
  errorText: string | null;
  /** A failure the provider's adapter classified `pause_campaign`: the campaign pauses. */
  pauseCampaign?: boolean;
  /** A failure the adapter reads as the person's opt-out (error class opted_out, e.g. 131050). */
  optedOut?: boolean;
}

export interface TouchedCampaign {
  id: string;
  dispatchState: DispatchState | null;
  /** Settled already (refund written, report built): what this batch moved came late. */
  settled: boolean;
}

/** A recipient row a batch moved after its campaign was settled (settle/delivery-report.repo.ts). */
export interface LateMove {
  campaignId: string;
  phone: string;
  from: DeliveryState | null;
  to: StatusEventState;
}

export interface AppliedBatch {
  /** Recipient rows whose state moved. */
  applied: number;
  /** Events whose recipient row does not exist. */
  unknown: number;
  /** Campaigns whose counters this batch changed, in id order. */
  campaigns: TouchedCampaign[];
  /** The moves of rows whose campaign was settled (none in the normal flow). */
  late: LateMove[];
}

/** One recipient's events of a batch collapsed to the row's target values. */
interface RowTarget {
  campaignId: string;
  phone: string;
  target: StatusEventState;
  stateAt: Date;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  failedAt: Date | null;
  pmid: string | null;
  code: string | null;
  text: string | null;
  /** Events of the batch that named this row. */
  events: number;
}

const RANK = new Map<string, number>(DELIVERY_STATES.map((s, i) => [s, i + 1]));
const rankOf = (s: string) => RANK.get(s) ?? 0;
const earlier = (a: Date | null, b: Date) => (a === null || b < a ? b : a);

/**
 * Collapses a batch per recipient (in Node, so PostgreSQL neither hashes nor sorts the events):
 * read beats delivered beats failed beats sent, so a batch holding both a receipt and a failure
 * for one message keeps the receipt (a provider never delivers what failed; a late failure after
 * delivery is refused by the statement). Each *_at is the earliest event of its state; the
 * provider message id the latest one given; the error the earliest failure's. Rows come out in
 * key order (campaign id, then phone by code unit), the order every writer locks them in.
 */
export function collapseEvents(events: readonly RecipientEvent[]): RowTarget[] {
  const byKey = new Map<string, { events: RecipientEvent[] }>();
  for (const e of events) {
    const key = `${e.campaignId}:${e.phone}`;
    const slot = byKey.get(key);
    if (slot) slot.events.push(e);
    else byKey.set(key, { events: [e] });
  }
  const rows: RowTarget[] = [];
  for (const { events: evs } of byKey.values()) {
    const first = evs[0] as RecipientEvent;
    let best = 0;
    let anyFailed = false;
    const at: Record<StatusEventState, Date | null> = {
      sent: null,
      delivered: null,
      read: null,
      failed: null,
    };
    let pmid: string | null = null;
    let pmidAt = -Infinity;
    let failure: RecipientEvent | null = null;
    for (const e of evs) {
      if (e.state === 'failed') {
        anyFailed = true;
        if (!failure || e.at < failure.at) failure = e;
      } else best = Math.max(best, rankOf(e.state));
      at[e.state] = earlier(at[e.state], e.at);
      if (e.providerMessageId !== null && e.at.getTime() >= pmidAt) {
        pmid = e.providerMessageId;
        pmidAt = e.at.getTime();
      }
    }
    const target: StatusEventState =
      best >= rankOf('delivered') || !anyFailed
        ? (DELIVERY_STATES[best - 1] as StatusEventState)
        : 'failed';
    const receipt = target === 'delivered' || target === 'read';
    rows.push({
      campaignId: first.campaignId,
      phone: first.phone,
      target,
      stateAt: at[target] as Date,
      sentAt: at.sent ?? at.delivered ?? at.read,
      deliveredAt: receipt ? (at.delivered ?? at.read) : null,
      readAt: target === 'read' ? at.read : null,
      failedAt: target === 'failed' ? at.failed : null,
      pmid,
      code: target === 'failed' ? (failure?.errorCode ?? null) : null,
      text: target === 'failed' ? (failure?.errorText ?? null) : null,
      events: evs.length,
    });
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort((a, b) => cmp(a.campaignId, b.campaignId) || cmp(a.phone, b.phone));
}

/**
 * Applies a batch in ONE statement, its events collapsed per recipient first (collapseEvents):
 * - each recipient row is found by primary key and locked in the order given (key order: two
 *   batches never deadlock on them; a dispatcher write, in its own order, may, and
 *   status-writer.ts writes the batch again), and moves only forward by the contract's
 *   `canAdvanceDelivery`, with the ranks of DELIVERY_STATES: repeated and out-of-order events
 *   change nothing twice, and a row they would not move is neither locked nor written (row
 *   locks write the row's page too; most 'sent' events find the row sent already);
 * - the campaigns' counters (recipients now in sent/delivered/read/failed) move by the rows'
 *   old and new states, added to this connection's counter shard (counter-shards.sql.ts), never to the
 *   campaign row: a batch takes that row FOR KEY SHARE only, in id order, which neither claims
 *   nor other batches wait for, while a settlement (FOR UPDATE) makes it wait and then read
 *   the settled row;
 * - rows of a campaign already settled are answered as `late` (settle/delivery-report.repo.ts's rule).
 */
export async function applyStatusBatch(
  db: DbOrTx,
  events: readonly RecipientEvent[],
): Promise<AppliedBatch> {
  if (events.length === 0) return { applied: 0, unknown: 0, campaigns: [], late: [] };
  const targets = collapseEvents(events);
  const iso = (d: Date | null) => (d === null ? null : d.toISOString());
  const cols = {
    campaignIds: targets.map((t) => t.campaignId),
    phones: targets.map((t) => t.phone),
    states: targets.map((t) => t.target),
    stateAts: targets.map((t) => t.stateAt.toISOString()),
    sentAts: targets.map((t) => iso(t.sentAt)),
    deliveredAts: targets.map((t) => iso(t.deliveredAt)),
    readAts: targets.map((t) => iso(t.readAt)),
    failedAts: targets.map((t) => iso(t.failedAt)),
    ids: targets.map((t) => t.pmid),
    codes: targets.map((t) => t.code),
    texts: targets.map((t) => t.text),
  };
  const ranks = [...DELIVERY_STATES];
  const rank = (state: string) => sql`array_position(${ranks}::text[], ${sql.raw(state)})`;
  // Whether the row moves from `old` to the event's target: only such rows are locked and
  // written (a 'sent' event for a row the dispatcher already wrote as sent costs no write).
  const advances = (old: string) => sql`(${sql.raw(old)} IS NULL
    OR (t.target = 'failed' AND ${rank(old)} < ${rank("'delivered'")})
    OR (t.target <> 'failed' AND ${sql.raw(old)} <> 'failed'
        AND ${rank('t.target')} > ${rank(old)}))`;
  // The lateral lookup makes the lock a nested loop over the rows' primary key in the order
  // given. The update finds the row by key again, not by the locked ctid: a version committed
  // after the statement's snapshot is invisible to a ctid scan and would be skipped silently.
  const { rows } = await sql<{
    applied: number;
    found: number[] | null;
    campaigns: TouchedCampaign[];
    late: LateMove[];
  }>`
    WITH t AS MATERIALIZED (
      SELECT * FROM unnest(${cols.campaignIds}::uuid[], ${cols.phones}::text[],
               ${cols.states}::text[], ${cols.stateAts}::timestamptz[],
               ${cols.sentAts}::timestamptz[], ${cols.deliveredAts}::timestamptz[],
               ${cols.readAts}::timestamptz[], ${cols.failedAts}::timestamptz[],
               ${cols.ids}::text[], ${cols.codes}::text[], ${cols.texts}::text[]) WITH ORDINALITY
             AS t(campaign_id, phone, target, state_at, sent_at, delivered_at, read_at, failed_at,
                  pmid, code, text, ord)
    ), cur AS MATERIALIZED (
      SELECT t.*, r.old_state
        FROM t CROSS JOIN LATERAL (
          SELECT r.state AS old_state FROM campaign_recipients r
           WHERE r.campaign_id = t.campaign_id AND r.phone = t.phone
             AND ${advances('r.state')}
             FOR UPDATE
        ) r
    ), upd AS (
      UPDATE campaign_recipients r SET
        state = t.target,
        state_at = t.state_at,
        sent_at = coalesce(r.sent_at, t.sent_at),
        delivered_at = coalesce(r.delivered_at, t.delivered_at),
        read_at = coalesce(t.read_at, r.read_at),
        failed_at = coalesce(t.failed_at, r.failed_at),
        error_code = CASE WHEN t.target = 'failed' THEN t.code ELSE r.error_code END,
        error_text = CASE WHEN t.target = 'failed' THEN t.text ELSE r.error_text END,
        provider_message_id = coalesce(t.pmid, r.provider_message_id),
        next_attempt_at = NULL
        FROM cur t
       WHERE r.campaign_id = t.campaign_id AND r.phone = t.phone
         AND ${advances('t.old_state')}
      RETURNING r.campaign_id, r.phone, t.old_state, r.state AS new_state
    ), delta AS (
      SELECT campaign_id,
             count(*) FILTER (WHERE new_state = 'sent')
               - count(*) FILTER (WHERE old_state = 'sent') AS sent,
             count(*) FILTER (WHERE new_state = 'delivered')
               - count(*) FILTER (WHERE old_state = 'delivered') AS delivered,
             count(*) FILTER (WHERE new_state = 'read')
               - count(*) FILTER (WHERE old_state = 'read') AS read,
             count(*) FILTER (WHERE new_state = 'failed')
               - count(*) FILTER (WHERE old_state = 'failed') AS failed
        FROM upd GROUP BY campaign_id
    ), locked AS MATERIALIZED (
      SELECT c.id, c.dispatch_state, c.delivery_settled
        FROM campaigns c WHERE c.id IN (SELECT campaign_id FROM delta)
       -- Shares the row with claims (NO KEY UPDATE) and other batches; waits for a settlement
       -- (FOR UPDATE), then reads what it committed.
       ORDER BY c.id FOR KEY SHARE
    ), camp AS (
      INSERT INTO campaign_delivery_counts AS k (campaign_id, slot, sent, delivered, read, failed)
      SELECT d.campaign_id, ${counterShard}, d.sent, d.delivered, d.read, d.failed
        FROM delta d JOIN locked l ON l.id = d.campaign_id
      ON CONFLICT (campaign_id, slot) DO UPDATE SET
        sent = k.sent + excluded.sent, delivered = k.delivered + excluded.delivered,
        read = k.read + excluded.read, failed = k.failed + excluded.failed
      RETURNING k.campaign_id AS id
    )
    SELECT (SELECT count(*) FROM upd)::int AS applied,
           (SELECT CASE WHEN (SELECT count(*) FROM cur) < ${targets.length} THEN
                     (SELECT coalesce(array_agg(t.ord::int), ARRAY[]::int[]) FROM t
                       WHERE EXISTS (SELECT 1 FROM campaign_recipients r
                                      WHERE r.campaign_id = t.campaign_id AND r.phone = t.phone))
                   END) AS found,
           (SELECT coalesce(json_agg(json_build_object('id', l.id, 'dispatchState', l.dispatch_state,
                                                       'settled', l.delivery_settled)
                                     ORDER BY l.id), '[]'::json)
              FROM locked l WHERE l.id IN (SELECT id FROM camp)) AS campaigns,
           (SELECT coalesce(json_agg(json_build_object('campaignId', u.campaign_id,
                                                       'phone', u.phone, 'from', u.old_state,
                                                       'to', u.new_state)), '[]'::json)
              FROM upd u JOIN locked l ON l.id = u.campaign_id
             WHERE l.delivery_settled) AS late`.execute(db);
  const row = rows[0];
  let unknown = 0;
  if (row?.found) {
    const found = new Set(row.found);
    targets.forEach((t, i) => {
      if (!found.has(i + 1)) unknown += t.events;
    });
  }
  return {
    applied: row?.applied ?? 0,
    unknown,
    campaigns: row?.campaigns ?? [],
    late: row?.late ?? [],
  };
}
