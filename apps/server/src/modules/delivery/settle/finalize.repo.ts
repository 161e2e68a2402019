import { sql } from 'kysely';
import type { CampaignStatus, CreditType, DispatchState } from '@herald/contract';
import type { Tx } from '../../../db/database.js';

/**
 * Queries behind a campaign's settlement (finalize.ts). The campaigns module keeps its repo to
 * itself (a module reaches another only through its service), so the few reads and writes of
 * the campaign row that settling needs are here, on the delivery engine's own columns plus the
 * status and report totals it moves as a system actor.
 */

/** What settling decides on, read under the campaign's row lock. */
export interface SettlingCampaign {
  id: string;
  user_id: string;
  name: string;
  credit_type: CreditType;
  status: CampaignStatus;
  charged: boolean;
  charged_count: number;
  dispatch_state: DispatchState | null;
  delivery_settled: boolean;
}

/**
 * Loads and row-locks the campaign for the rest of the transaction: a second settlement (or a
 * status change, a report upload, a status batch moving its counters) waits here and then
 * reads what this one committed.
 */
export function lockForSettlement(tx: Tx, id: string): Promise<SettlingCampaign | undefined> {
  return tx
    .selectFrom('campaigns')
    .select([
      'id',
      'user_id',
      'name',
      'credit_type',
      'status',
      'charged',
      'charged_count',
      'dispatch_state',
      'delivery_settled',
    ])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Any row in flight. A row given back from a dead instance has `next_attempt_at` set (migration
 * 17's partial index answers); a claimed one has none (dispatch/dispatch.repo.ts), but its
 * (campaign, key) pair is on record in `dispatch_claimers` until the row is written or given
 * back, so the campaign's rows are read only while such a pair exists.
 */
export async function hasSending(tx: Tx, campaignId: string): Promise<boolean> {
  const { rows } = await sql<{ sending: boolean }>`
    SELECT EXISTS (SELECT 1 FROM campaign_recipients
                    WHERE campaign_id = ${campaignId}::uuid AND state = 'sending'
                      AND next_attempt_at IS NOT NULL)
        OR (EXISTS (SELECT 1 FROM dispatch_claimers WHERE campaign_id = ${campaignId}::uuid)
            AND EXISTS (SELECT 1 FROM campaign_recipients
                         WHERE campaign_id = ${campaignId}::uuid AND state = 'sending'))
        AS sending`.execute(tx);
  return rows[0]?.sending ?? false;
}

export interface StateCounts {
  /** Never sent: not claimed yet, or waiting for a retry. */
  unsent: number;
  failed: number;
  /** Skipped as on the owner's suppression list: never sent, refunded with the failed. */
  optedOut: number;
  /** Sent within the receipt wait and still without a final state. */
  awaiting: number;
  /** When the last of those stops being awaited. */
  awaitUntil: Date | null;
}

/** One pass over the campaign's recipients, from the rows themselves rather than the counters. */
export async function stateCounts(
  tx: Tx,
  campaignId: string,
  waitMs: number,
): Promise<StateCounts> {
  const wait = `${Math.max(0, Math.round(waitMs))} milliseconds`;
  const { rows } = await sql<StateCounts>`
    SELECT count(*) FILTER (WHERE state IS NULL OR state = 'queued')::int AS unsent,
           count(*) FILTER (WHERE state = 'failed')::int AS failed,
           count(*) FILTER (WHERE state = 'opted_out')::int AS "optedOut",
           count(*) FILTER (WHERE state = 'sent'
                             AND coalesce(sent_at, state_at) > now() - ${wait}::interval)::int
             AS awaiting,
           max(coalesce(sent_at, state_at) + ${wait}::interval)
             FILTER (WHERE state = 'sent'
                       AND coalesce(sent_at, state_at) > now() - ${wait}::interval)
             AS "awaitUntil"
      FROM campaign_recipients WHERE campaign_id = ${campaignId}::uuid`.execute(tx);
  const row = rows[0];
  return {
    unsent: row?.unsent ?? 0,
    failed: row?.failed ?? 0,
    optedOut: row?.optedOut ?? 0,
    awaiting: row?.awaiting ?? 0,
    awaitUntil: row?.awaitUntil ?? null,
  };
}

/**
 * Marks the settlement done: what was refunded, and the charge lowered by as much. The counter
 * shards (counter-shards.sql.ts) are folded into the row: under this row lock no status batch is
 * between its lock and its commit, and with nothing in flight no result write moves a count, so
 * the row alone then holds the campaign's counts (later events open shards again).
 */
export async function markSettled(tx: Tx, id: string, refunded: number): Promise<void> {
  await sql`
    WITH k AS (
      DELETE FROM campaign_delivery_counts WHERE campaign_id = ${id}::uuid
      RETURNING sent, delivered, read, failed
    ), s AS (
      SELECT coalesce(sum(sent), 0)::int AS sent, coalesce(sum(delivered), 0)::int AS delivered,
             coalesce(sum(read), 0)::int AS read, coalesce(sum(failed), 0)::int AS failed
        FROM k
    )
    UPDATE campaigns c SET
      delivery_settled = true,
      delivery_refunded = ${refunded}::int,
      charged_count = c.charged_count - ${refunded}::int,
      sent_count = c.sent_count + s.sent,
      delivered_count = c.delivered_count + s.delivered,
      read_count = c.read_count + s.read,
      failed_count = c.failed_count + s.failed
      FROM s
     WHERE c.id = ${id}::uuid`.execute(tx);
}

export async function setStatus(
  tx: Tx,
  id: string,
  status: CampaignStatus,
  report?: { count: number; delivered: number },
): Promise<void> {
  await tx
    .updateTable('campaigns')
    .set({
      status,
      ...(report ? { report_count: report.count, report_delivered: report.delivered } : {}),
    })
    .where('id', '=', id)
    .execute();
}
