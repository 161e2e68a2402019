import { sql } from 'kysely';
import type { CreditType, DispatchState, ProviderKind } from '@herald/contract';
import type { Tx } from '../../../db/database.js';

/**
 * The campaign-row writes that start, stop, pause and resume a campaign's sending
 * (dispatch-control.service.ts). Each runs in the caller's transaction, which holds the
 * campaign's row lock: the lock every claim takes (dispatch.repo.ts).
 */

/**
 * The sender a campaign goes through: the one its credit type is routed to (Providers
 * screen), else the default sender; with its provider's kind and the campaign's credit type.
 * A test campaign (docs/api.md, Test keys) goes through a sender of the built-in simulator
 * whatever the routing says (the default one if it is the simulator's, else the oldest); with
 * no such sender there is none, and the campaign stays Approved.
 */
export async function senderOfCampaign(
  tx: Tx,
  campaignId: string,
): Promise<{ id: string; kind: ProviderKind; creditType: CreditType } | undefined> {
  const { rows } = await sql<{ id: string; kind: ProviderKind; credit_type: CreditType }>`
    SELECT s.id, p.kind, c.credit_type FROM campaigns c
      LEFT JOIN credit_routes r ON r.credit_type = c.credit_type
      JOIN senders s ON s.id = CASE WHEN c.test THEN
        (SELECT t.id FROM senders t JOIN providers tp ON tp.id = t.provider_id
          WHERE tp.builtin ORDER BY t.is_default DESC, t.created_at, t.id LIMIT 1)
        ELSE coalesce(r.sender_id, (SELECT d.id FROM senders d WHERE d.is_default)) END
      JOIN providers p ON p.id = s.provider_id
     WHERE c.id = ${campaignId}::uuid`.execute(tx);
  const row = rows[0];
  return row && { id: row.id, kind: row.kind, creditType: row.credit_type };
}

/**
 * Approved becomes Processing with the sender and dispatch running: the campaign's name and
 * owner (for its audit entry); nothing for a campaign the engine already took once (its
 * `dispatch_state` is set for good), or one whose "Send at" is still ahead (its scheduled job
 * starts it then; docs/delivery.md, Scheduled sends).
 */
export function markStarted(
  tx: Tx,
  campaignId: string,
  sender: { id: string; simulated: boolean },
): Promise<{ name: string; user_id: string } | undefined> {
  return tx
    .updateTable('campaigns')
    .set({
      status: 'Processing',
      sender_id: sender.id,
      simulated: sender.simulated,
      dispatch_state: 'running',
      dispatch_heartbeat_at: sql<Date>`now()`,
    })
    .where('id', '=', campaignId)
    .where('dispatch_state', 'is', null)
    .where(sql<boolean>`send_at IS NULL OR send_at <= now()`)
    .returning(['name', 'user_id'])
    .executeTakeFirst();
}

/**
 * Stops the sending of a campaign the engine is sending, or has sent but not settled; false
 * when the engine has no part in it.
 */
export async function markCancelled(tx: Tx, campaignId: string): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    UPDATE campaigns SET dispatch_state = 'cancelled', dispatch_resume_at = NULL
    WHERE id = ${campaignId}::uuid
      AND (dispatch_state IN ('running', 'paused', 'waiting')
           OR (dispatch_state = 'done' AND NOT delivery_settled))
    RETURNING id`.execute(tx);
  return rows.length > 0;
}

/**
 * Moves a Processing campaign's sending from one of `from` to paused (no resume time) or to
 * running (with a fresh heartbeat, so the watchdog does not count it stalled): the state it
 * left, read under the caller's row lock; nothing when it was in none of `from`.
 */
export async function moveDispatchState(
  tx: Tx,
  campaignId: string,
  from: readonly DispatchState[],
  to: 'paused' | 'running',
): Promise<DispatchState | undefined> {
  const set =
    to === 'paused'
      ? sql`dispatch_state = 'paused', dispatch_resume_at = NULL`
      : sql`dispatch_state = 'running', dispatch_heartbeat_at = now()`;
  const { rows } = await sql<{ before: DispatchState }>`
    UPDATE campaigns c SET ${set}
      FROM (SELECT dispatch_state FROM campaigns WHERE id = ${campaignId}::uuid) old
     WHERE c.id = ${campaignId}::uuid AND c.status = 'Processing'
       AND c.dispatch_state = ANY(${[...from]}::text[])
    RETURNING old.dispatch_state AS before`.execute(tx);
  return rows[0]?.before;
}

/**
 * A provider's answer paused the sending (its spam limit, a paused template): running or
 * waiting becomes paused, as the Admin's pause does. The campaign's name, owner and the state it
 * left when it moved; nothing when it was not sending (paused already, cancelled, done).
 */
export async function pauseByProvider(
  tx: Tx,
  campaignId: string,
): Promise<{ name: string; user_id: string; before: DispatchState } | undefined> {
  const { rows } = await sql<{ name: string; user_id: string; before: DispatchState }>`
    UPDATE campaigns c SET dispatch_state = 'paused', dispatch_resume_at = NULL
      FROM (SELECT dispatch_state FROM campaigns WHERE id = ${campaignId}::uuid FOR UPDATE) old
     WHERE c.id = ${campaignId}::uuid AND c.status = 'Processing'
       AND c.dispatch_state IN ('running', 'waiting')
    RETURNING c.name, c.user_id, old.dispatch_state AS before`.execute(tx);
  return rows[0];
}
