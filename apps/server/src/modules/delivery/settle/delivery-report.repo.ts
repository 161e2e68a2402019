import { sql } from 'kysely';
import type { DeliveryState } from '@herald/contract';
import type { Tx } from '../../../db/database.js';
import type { LateMove } from '../status/status.repo.js';

/**
 * The delivery report of a campaign the engine sent, built from its recipients'
 * states into the same `campaign_report_entries` an uploaded report fills, so the report dialog,
 * the CSV export and the counts read it as they read an uploaded one; status events arriving
 * after that keep it in step (applyLateMoves).
 */

/** The report's status text for a recipient state (NULL, queued: never sent). */
export const REPORT_STATUS_OF: Readonly<Record<DeliveryState | 'unsent', string>> = {
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
  // On the owner's suppression list at send time: never sent (docs/delivery.md, Opt-outs).
  opted_out: 'Opted out',
  sent: 'Sent',
  sending: 'Not sent',
  queued: 'Not sent',
  unsent: 'Not sent',
};

/** Statuses the report counts as delivered (a message read was delivered first). */
export const REPORT_DELIVERED_STATUSES = [REPORT_STATUS_OF.delivered, REPORT_STATUS_OF.read];

export interface DeliveryReportTotals {
  total: number;
  delivered: number;
}

/**
 * Replaces the campaign's report entries with one row per recipient, in one INSERT ... SELECT
 * (a million recipients are never walked in Node), and answers the totals it wrote. Runs in the
 * caller's transaction, which holds the campaign's row lock.
 */
export async function buildDeliveryReport(
  tx: Tx,
  campaignId: string,
): Promise<DeliveryReportTotals> {
  // A million rows take seconds: this transaction alone may run longer than the pool allows.
  await sql`SET LOCAL statement_timeout = '300s'`.execute(tx);
  await tx.deleteFrom('campaign_report_entries').where('campaign_id', '=', campaignId).execute();
  const s = REPORT_STATUS_OF;
  const { rows } = await sql<DeliveryReportTotals>`
    WITH written AS (
      INSERT INTO campaign_report_entries (campaign_id, phone, status)
      SELECT campaign_id, phone,
             CASE state WHEN 'delivered' THEN ${s.delivered}::text
                        WHEN 'read' THEN ${s.read}::text
                        WHEN 'failed' THEN ${s.failed}::text
                        WHEN 'opted_out' THEN ${s.opted_out}::text
                        WHEN 'sent' THEN ${s.sent}::text
                        ELSE ${s.unsent}::text END
        FROM campaign_recipients WHERE campaign_id = ${campaignId}::uuid
      RETURNING status
    )
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE status = ANY(${REPORT_DELIVERED_STATUSES}::text[]))::int
             AS delivered
      FROM written`.execute(tx);
  return { total: rows[0]?.total ?? 0, delivered: rows[0]?.delivered ?? 0 };
}

/**
 * Status events that arrive after the campaign was settled (a receipt later than the receipt
 * wait, a failure reported after 'sent', the success of an attempt counted as unsent). The rule:
 * a late event moves the recipient row and the campaign's counters as any event does (forward
 * only, by the contract's canAdvanceDelivery), and the report with them: the recipient's entry,
 * while it still reads what this file wrote for the row's old state (an entry an Admin's upload
 * wrote otherwise stays), and `report_delivered`. It never changes the refund: credits were
 * settled once, on the states at settlement (failed and unsent given back, sent, delivered and
 * read kept). So a sent message failing late stays charged, and an unsent one delivered late
 * stays refunded. A recipient refunded as failed never counts as delivered: failed is final for
 * delivered and read. Runs in the status batch's transaction, after its statement (a fresh
 * snapshot, so it also sees a report built by a settlement that committed while the batch
 * waited for the campaign's lock), under the campaign's row lock that statement took.
 */
export async function applyLateMoves(
  tx: Tx,
  campaignId: string,
  moves: readonly LateMove[],
): Promise<void> {
  if (moves.length === 0) return;
  const text = (s: DeliveryState | null) => REPORT_STATUS_OF[s ?? 'unsent'];
  await sql`
    WITH m AS (
      SELECT * FROM unnest(${moves.map((m) => m.phone)}::text[],
                           ${moves.map((m) => text(m.from))}::text[],
                           ${moves.map((m) => text(m.to))}::text[]) AS m(phone, was, now)
    ), e AS (
      UPDATE campaign_report_entries e SET status = m.now
        FROM m
       WHERE e.campaign_id = ${campaignId}::uuid AND e.phone = m.phone AND e.status = m.was
         AND m.now <> m.was
      RETURNING m.was, e.status
    )
    UPDATE campaigns SET report_delivered = report_delivered
      + (SELECT count(*) FILTER (WHERE status = ANY(${REPORT_DELIVERED_STATUSES}::text[]))
              - count(*) FILTER (WHERE was = ANY(${REPORT_DELIVERED_STATUSES}::text[]))
           FROM e)::int
     WHERE id = ${campaignId}::uuid AND EXISTS (SELECT 1 FROM e)`.execute(tx);
}
