import { sql } from 'kysely';
import type { DeliveryState } from '@herald/contract';
import type { Tx } from '../../db/database.js';

/**
 * The delivery report of a campaign the engine sent (issue 14), built from its recipients'
 * states into the same `campaign_report_entries` an uploaded report fills, so the report dialog,
 * the CSV export and the counts read it as they read an uploaded one.
 */

/** The report's status text for a recipient state (NULL, queued: never sent). */
export const REPORT_STATUS_OF: Readonly<Record<DeliveryState | 'unsent', string>> = {
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
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
