import { sql, type UpdateObject } from 'kysely';
import { server as msg, type DispatchState } from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { conflict } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { lockVisibleCampaign } from '../campaigns/campaign-access.js';
import { publishCampaignProgress } from '../live/campaign-progress.js';
import { addDispatchJobs } from './dispatch-jobs.js';
import { requestFinalize } from './finalize-request.js';

/**
 * Starting, pausing, resuming and cancelling a campaign's sending (issue 14). Each runs in a
 * transaction holding the campaign's row lock, the lock every claim of a batch takes: once
 * a pause commits, no instance claims another recipient of that campaign.
 */

/**
 * An Admin's Approved becomes the engine's Processing in the same transaction: the default
 * sender, its simulated flag, dispatch running and the slot jobs (which commit with it).
 * Returns false, leaving the campaign Approved, for a campaign the engine already sent
 * (it stays with the manual path) or when no default sender exists.
 */
export async function startDispatch(ctx: AppContext, tx: Tx, campaignId: string): Promise<boolean> {
  const sender = await tx
    .selectFrom('senders')
    .select(['id', 'provider'])
    .where('is_default', '=', true)
    .executeTakeFirst();
  if (!sender) {
    ctx.log.warn({ component: 'delivery', campaignId }, 'no default sender: left Approved');
    return false;
  }
  const started = await tx
    .updateTable('campaigns')
    .set({
      status: 'Processing',
      sender_id: sender.id,
      simulated: ctx.delivery.simulated(sender.provider),
      dispatch_state: 'running',
      dispatch_heartbeat_at: sql<Date>`now()`,
    })
    .where('id', '=', campaignId)
    .where('dispatch_state', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!started) return false;
  await addDispatchJobs(tx, campaignId);
  await publishCampaignProgress(tx, [campaignId]);
  return true;
}

/**
 * An Admin's Cancelled (or Rejected) of a campaign the engine is sending, or has sent but not
 * settled: no more claims, and the settlement refunds the failed and unsent once the sends
 * in flight end. Returns false when the engine has no part in it (the full refund applies).
 */
export async function cancelDispatch(tx: Tx, campaignId: string): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    UPDATE campaigns SET dispatch_state = 'cancelled', dispatch_resume_at = NULL
    WHERE id = ${campaignId}::uuid
      AND (dispatch_state IN ('running', 'paused', 'waiting')
           OR (dispatch_state = 'done' AND NOT delivery_settled))
    RETURNING id`.execute(tx);
  if (rows.length === 0) return false;
  await requestFinalize(tx, campaignId);
  await publishCampaignProgress(tx, [campaignId]);
  return true;
}

/**
 * Moves a Processing campaign's sending from one of `from` to what `set` says, under the row
 * lock the claims take; `then` runs in the same transaction before the screens are told.
 */
function moveDispatch(
  ctx: AppContext,
  actor: AuthUser,
  id: string,
  move: {
    from: readonly DispatchState[];
    set: UpdateObject<Database, 'campaigns'>;
    refused: string;
    done: string;
    then?: (tx: Tx) => Promise<unknown>;
  },
): Promise<{ message: string }> {
  return ctx.db.transaction().execute(async (tx) => {
    await lockVisibleCampaign(tx, actor, id);
    const moved = await tx
      .updateTable('campaigns')
      .set(move.set)
      .where('id', '=', id)
      .where('status', '=', 'Processing')
      .where('dispatch_state', 'in', move.from)
      .returning('id')
      .executeTakeFirst();
    if (!moved) throw conflict(move.refused);
    await move.then?.(tx);
    await publishCampaignProgress(tx, [id]);
    return { message: move.done };
  });
}

/** POST /api/campaigns/{id}/delivery/pause (Admin): a running or waiting campaign pauses. */
export function pauseDispatch(ctx: AppContext, actor: AuthUser, id: string) {
  return moveDispatch(ctx, actor, id, {
    from: ['running', 'waiting'],
    set: { dispatch_state: 'paused', dispatch_resume_at: null },
    refused: msg.deliveryNotSending,
    done: msg.deliveryPaused,
  });
}

/** POST /api/campaigns/{id}/delivery/resume (Admin): a paused campaign sends again. */
export function resumeDispatch(ctx: AppContext, actor: AuthUser, id: string) {
  return moveDispatch(ctx, actor, id, {
    from: ['paused'],
    set: { dispatch_state: 'running', dispatch_heartbeat_at: sql<Date>`now()` },
    refused: msg.deliveryNotPaused,
    done: msg.deliveryResumed,
    then: (tx) => addDispatchJobs(tx, id),
  });
}
