import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import type { CampaignStatus, DeliveryState, DispatchState } from '@herald/contract';
import type { TestApp } from '../../../../test/harness.js';
import { shardSums, summedCounts } from '../../campaigns/index.js';

/**
 * Test-only helpers of the status writer, webhook and finalize tests: recipient states set
 * directly as fixtures (with the campaign's counters made to match them, as every writer
 * keeps them), and status callbacks signed as the simulator signs them.
 */

/** Sets recipients' states (sent/delivered/read rows get sent_at = `sentAt`, default now). */
export async function setStates(
  t: TestApp,
  campaignId: string,
  states: Record<string, DeliveryState | null>,
  sentAt: Date = new Date(),
): Promise<void> {
  const phones = Object.keys(states);
  const values = phones.map((p) => states[p] ?? null);
  const at = sentAt.toISOString();
  await sql`
    UPDATE campaign_recipients r SET
      state = s.state, state_at = CASE WHEN s.state IS NULL THEN NULL ELSE ${at}::timestamptz END,
      sent_at = CASE WHEN s.state IN ('sent', 'delivered', 'read') THEN ${at}::timestamptz END,
      delivered_at = CASE WHEN s.state IN ('delivered', 'read') THEN ${at}::timestamptz END,
      read_at = CASE WHEN s.state = 'read' THEN ${at}::timestamptz END,
      failed_at = CASE WHEN s.state = 'failed' THEN ${at}::timestamptz END,
      -- In flight for what reads it (settle/finalize.repo.ts hasSending): a due time a minute
      -- away, which no claim takes sooner. (A claimed row has none: its key's record says it.)
      next_attempt_at = CASE WHEN s.state = 'sending'
        THEN ${at}::timestamptz + interval '60 seconds' END
    FROM unnest(${phones}::text[], ${values}::text[]) AS s(phone, state)
    WHERE r.campaign_id = ${campaignId}::uuid AND r.phone = s.phone`.execute(t.ownerDb);
  await syncCounters(t, campaignId);
}

/** The campaign's counters recomputed from its rows (what a fixture or a check needs). */
export async function syncCounters(t: TestApp, campaignId: string): Promise<void> {
  const c = await countsFromRows(t, campaignId);
  await t.ownerDb
    .deleteFrom('campaign_delivery_counts')
    .where('campaign_id', '=', campaignId)
    .execute();
  await t.ownerDb
    .updateTable('campaigns')
    .set({
      sent_count: c.sent,
      delivered_count: c.delivered,
      read_count: c.read,
      failed_count: c.failed,
    })
    .where('id', '=', campaignId)
    .execute();
}

export interface Counters {
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

export async function countsFromRows(t: TestApp, campaignId: string): Promise<Counters> {
  const { rows } = await sql<Counters>`
    SELECT count(*) FILTER (WHERE state = 'sent')::int AS sent,
           count(*) FILTER (WHERE state = 'delivered')::int AS delivered,
           count(*) FILTER (WHERE state = 'read')::int AS read,
           -- Opted out counts with the failed (docs/delivery.md, Opt-outs).
           count(*) FILTER (WHERE state IN ('failed', 'opted_out'))::int AS failed
      FROM campaign_recipients WHERE campaign_id = ${campaignId}::uuid`.execute(t.ownerDb);
  return rows[0] as Counters;
}

/** The campaign's counters as the screens read them: its row's plus its counter shards'. */
export async function counters(t: TestApp, campaignId: string): Promise<Counters> {
  const c = await t.ownerDb
    .selectFrom('campaigns')
    .leftJoinLateral(shardSums, (join) => join.onTrue())
    .select(summedCounts)
    .where('id', '=', campaignId)
    .executeTakeFirstOrThrow();
  return {
    sent: c.sent_count,
    delivered: c.delivered_count,
    read: c.read_count,
    failed: c.failed_count,
  };
}

export async function statesOf(
  t: TestApp,
  campaignId: string,
): Promise<Record<string, DeliveryState | null>> {
  const rows = await t.ownerDb
    .selectFrom('campaign_recipients')
    .select(['phone', 'state'])
    .where('campaign_id', '=', campaignId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.phone, r.state]));
}

/** Puts a campaign where the engine would have it (status and dispatch state). */
export async function setDispatch(
  t: TestApp,
  campaignId: string,
  status: CampaignStatus,
  dispatchState: DispatchState | null,
): Promise<void> {
  await t.ownerDb
    .updateTable('campaigns')
    .set({ status, dispatch_state: dispatchState })
    .where('id', '=', campaignId)
    .execute();
}

export interface CallbackEvent {
  reference: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  id?: string;
  timestamp?: string;
  error?: { code: number; title: string };
}

/** A status event for `${campaignId}:${phone}`, at `offsetMs` after a fixed instant. */
export function ev(
  campaignId: string,
  phone: string,
  status: CallbackEvent['status'],
  offsetMs = 0,
): CallbackEvent {
  const at = new Date(Date.UTC(2026, 0, 1) + offsetMs).toISOString();
  return {
    reference: `${campaignId}:${phone}`,
    status,
    id: `sim-${phone}`,
    timestamp: at,
    ...(status === 'failed' ? { error: { code: 131049, title: 'Message not delivered' } } : {}),
  };
}

/** The simulator's header over `body` with `secret`. */
export function signature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Posts a signed status callback as the simulator does. */
export function postCallback(
  t: TestApp,
  events: CallbackEvent[],
  secret: string,
  opts: { provider?: string; sign?: (body: string) => string; body?: string } = {},
) {
  const body = opts.body ?? JSON.stringify({ events });
  return t.request({
    method: 'POST',
    url: `/api/delivery/webhooks/${opts.provider ?? 'simulator'}`,
    headers: {
      'content-type': 'application/json',
      'x-herald-signature': (opts.sign ?? ((b) => signature(b, secret)))(body),
    },
    payload: body,
  });
}
