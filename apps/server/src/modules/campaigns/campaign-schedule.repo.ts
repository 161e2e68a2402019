import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/database.js';

/**
 * The statements of scheduled sends (campaign-schedule.ts). "Ahead" and "due" are judged by
 * the database's clock, the one graphile-worker's `run_at` is compared with, so an app
 * instance whose clock drifts neither starts a campaign early nor holds it late.
 */

/** The campaign's `send_at` when it is still ahead of now; else null (none, or its time came). */
export async function sendAtAhead(tx: Tx, campaignId: string): Promise<Date | null> {
  const { rows } = await sql<{ send_at: Date }>`
    SELECT send_at FROM campaigns
     WHERE id = ${campaignId}::uuid AND send_at > now()`.execute(tx);
  return rows[0]?.send_at ?? null;
}

/**
 * Whether a campaign the caller has row-locked is Approved, scheduled, due, and not taken by
 * the delivery engine yet: the one state a scheduled start may act on.
 */
export async function isDueApproved(tx: Tx, campaignId: string): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM campaigns
     WHERE id = ${campaignId}::uuid AND status = 'Approved' AND dispatch_state IS NULL
       AND send_at IS NOT NULL AND send_at <= now()`.execute(tx);
  return rows.length > 0;
}

/** The sweep's work: Approved campaigns whose time has come, oldest time first. */
export async function dueApprovedCampaigns(db: DbOrTx, limit: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM campaigns
     WHERE status = 'Approved' AND send_at IS NOT NULL AND send_at <= now()
       AND dispatch_state IS NULL
     ORDER BY send_at, id
     LIMIT ${limit}`.execute(db);
  return rows.map((r) => r.id);
}
