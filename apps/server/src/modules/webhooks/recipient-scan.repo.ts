import { sql } from 'kysely';
import { WEBHOOK_RECIPIENT_STATES, type CampaignStatus } from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';

/**
 * The statements of `recipients.updated` (recipient-scan.ts). A scan runs in one REPEATABLE
 * READ transaction: its snapshot is stored as the campaign's cursor, and the next scan reports
 * the rows whose current version (xmin) that snapshot did not see: exactly the rows changed
 * since, whatever order their writers committed in (the batching PgQ builds on snapshots too).
 */

/** Waiting after sending ended for late status events: a scan at most this often, this long. */
const LATE_SCAN_EVERY = sql`interval '5 minutes'`;
const LATE_SCAN_FOR = sql`interval '1 day'`;

/**
 * Campaigns to scan now, of owners with an enabled endpoint subscribed to `recipients.updated`:
 * those sending; those the engine took and no scan saw yet; those whose status moved since the
 * last scan; and, for a day after their last change, the rest every few minutes. Sending
 * campaigns first: the others must not hold up their report.
 */
export async function campaignsToScan(
  db: DbOrTx,
): Promise<{ id: string; user_id: string; status: CampaignStatus }[]> {
  const { rows } = await sql<{ id: string; user_id: string; status: CampaignStatus }>`
    SELECT c.id, c.user_id, c.status
      FROM campaigns c
      LEFT JOIN webhook_recipient_cursors k ON k.campaign_id = c.id
     WHERE EXISTS (SELECT 1 FROM webhook_endpoints e
                    WHERE e.user_id = c.user_id AND e.enabled
                      AND 'recipients.updated' = ANY (e.events))
       AND (c.status = 'Processing'
            OR (k.campaign_id IS NULL AND c.dispatch_state IS NOT NULL
                AND c.created_at > now() - ${LATE_SCAN_FOR})
            OR k.status_seen IS DISTINCT FROM c.status
            OR (k.last_change_at > now() - ${LATE_SCAN_FOR}
                AND k.scanned_at < now() - ${LATE_SCAN_EVERY}))
     ORDER BY c.status = 'Processing' DESC, c.id`.execute(db);
  return rows;
}

/**
 * Takes the campaign's scan lock for this transaction (another instance scanning it answers
 * false) and answers its cursor, status, and the snapshot's xmax (the epoch reference).
 */
export async function beginScan(tx: Tx, campaignId: string) {
  const { rows } = await sql<{
    locked: boolean;
    snapshot: string | null;
    status: CampaignStatus | null;
    xmax: string;
  }>`
    SELECT pg_try_advisory_xact_lock(hashtextextended('webhook-scan:' || ${campaignId}, 0)) AS locked,
           (SELECT snapshot FROM webhook_recipient_cursors WHERE campaign_id = ${campaignId}::uuid) AS snapshot,
           (SELECT status FROM campaigns WHERE id = ${campaignId}::uuid) AS status,
           pg_snapshot_xmax(pg_current_snapshot())::text AS xmax`.execute(tx);
  return rows[0]!;
}

export interface ChangedRecipient {
  phone: string;
  state: (typeof WEBHOOK_RECIPIENT_STATES)[number];
  state_at: Date;
  error_code: string | null;
}

/**
 * The next `limit` recipients (by phone, after `after`) in a reported state whose row changed
 * since `since` (all of them when null): one walk of the campaign's primary key over the pages.
 */
export async function changedAfter(
  tx: Tx,
  campaignId: string,
  since: string | null,
  xmax: string,
  after: string,
  limit: number,
): Promise<ChangedRecipient[]> {
  const { rows } = await sql<ChangedRecipient>`
    SELECT r.phone, r.state, coalesce(r.state_at, now()) AS state_at, r.error_code
      FROM campaign_recipients r
     WHERE r.campaign_id = ${campaignId}::uuid AND r.phone > ${after}
       AND r.state = ANY (${[...WEBHOOK_RECIPIENT_STATES]}::text[])
       AND (${since}::pg_snapshot IS NULL
            OR NOT pg_visible_in_snapshot(webhook_xid8(r.xmin, ${xmax}::xid8), ${since}::pg_snapshot))
     ORDER BY r.phone
     LIMIT ${limit}`.execute(tx);
  return rows;
}

/** Stores this transaction's snapshot as the campaign's cursor. */
export async function saveCursor(
  tx: Tx,
  campaignId: string,
  status: CampaignStatus,
  changed: boolean,
): Promise<void> {
  await sql`
    INSERT INTO webhook_recipient_cursors AS k (campaign_id, snapshot, scanned_at, last_change_at, status_seen)
    VALUES (${campaignId}::uuid, pg_current_snapshot()::text, now(),
            CASE WHEN ${changed} THEN now() END, ${status})
    ON CONFLICT (campaign_id) DO UPDATE SET
      snapshot = excluded.snapshot, scanned_at = excluded.scanned_at,
      last_change_at = coalesce(excluded.last_change_at, k.last_change_at),
      status_seen = excluded.status_seen`.execute(tx);
}
