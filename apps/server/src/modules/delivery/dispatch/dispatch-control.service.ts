import { campaignLink, kindCarries, server as msg, type DispatchState } from '@herald/contract';
import type { AppContext } from '../../../context.js';
import type { Tx } from '../../../db/database.js';
import { conflict } from '../../../lib/app-error.js';
import type { AuthUser } from '../../../plugins/auth-state.js';
import { SYSTEM_ACTOR, type AuditActor } from '../../audit/index.js';
import {
  lockVisibleCampaign,
  recordDispatchMove,
  recordStatusMove,
  type CampaignDispatch,
} from '../../campaigns/index.js';
import { publishCampaignProgress } from '../../live/index.js';
import { captureQuietHours } from '../../quiet-hours/index.js';
import { notifyRole } from '../../notifications/notifications.service.js';
import { requestFinalize } from '../settle/finalize-request.js';
import { addLaneJobs } from './dispatch-lanes.js';
import * as repo from './dispatch-control.repo.js';
import { campaignTemplate } from '../senders/templates.service.js';

/**
 * Starting, pausing, resuming and cancelling a campaign's sending. Each runs in a transaction
 * holding the campaign's row lock, the lock every claim of a batch takes: once a pause
 * commits, no instance claims another recipient of that campaign. Start and cancel are asked
 * by the campaigns module's status change through its CampaignDispatch port (wired in
 * context.ts), in that change's transaction.
 */

type Deps = Pick<AppContext, 'log' | 'delivery'> & {
  /** Campaigns get their owner's quiet hours at start (config DELIVERY_QUIET_HOURS). */
  quietHours: boolean;
};

/**
 * An Admin's Approved becomes the engine's Processing in the same transaction: the sender its
 * credit type is routed to (else the default one), its simulated flag, dispatch running and
 * the lane jobs (which commit with it), and the move's audit entry, Herald's own whoever approved
 * or scheduled it. Returns false, leaving the campaign Approved, for a
 * campaign the engine already sent (it stays with the manual path), or when no sender exists
 * or the sender cannot carry the campaign's type.
 */
export async function startDispatch(deps: Deps, tx: Tx, campaignId: string): Promise<boolean> {
  const sender = await repo.senderOfCampaign(tx, campaignId);
  if (!sender) {
    deps.log.warn({ component: 'delivery', campaignId }, 'no sender: left Approved');
    return false;
  }
  // Routing refuses this already; a default sender on an SMS gateway could still meet it.
  if (!kindCarries(sender.kind, sender.creditType)) {
    deps.log.warn({ component: 'delivery', campaignId }, 'sender cannot carry it: left Approved');
    return false;
  }
  const simulated = deps.delivery.simulated(sender.kind);
  const started = await repo.markStarted(tx, campaignId, { id: sender.id, simulated });
  if (!started) return false;
  await recordStatusMove(
    tx,
    SYSTEM_ACTOR,
    { id: campaignId, ...started },
    { before: 'Approved', after: 'Processing' },
  );
  // The owner's window as it is now holds for this campaign (docs/delivery.md, Quiet hours).
  await captureQuietHours(tx, campaignId, deps.quietHours);
  await addLaneJobs(tx, campaignId);
  await publishCampaignProgress(tx, [campaignId]);
  return true;
}

/**
 * An Admin's Cancelled (or Rejected) of a campaign the engine is sending, or has sent but not
 * settled: no more claims, and the settlement refunds the failed and unsent once the sends
 * in flight end. Returns false when the engine has no part in it (the full refund applies).
 */
export async function cancelDispatch(tx: Tx, campaignId: string): Promise<boolean> {
  if (!(await repo.markCancelled(tx, campaignId))) return false;
  await requestFinalize(tx, campaignId);
  await publishCampaignProgress(tx, [campaignId]);
  return true;
}

/** The engine's side of the campaigns module's port, for context.ts to wire. */
export function campaignDispatch(deps: Deps): CampaignDispatch {
  return {
    start: (tx, campaignId) => startDispatch(deps, tx, campaignId),
    cancel: cancelDispatch,
    template: campaignTemplate,
  };
}

/**
 * Moves a Processing campaign's sending from one of `from` to `to`, under the row lock the
 * claims take, with its audit entry (`audit` is who asked); `then` runs in the same
 * transaction before the screens are told.
 */
function moveDispatch(
  ctx: AppContext,
  actor: AuthUser,
  audit: AuditActor,
  id: string,
  move: {
    from: readonly DispatchState[];
    to: 'paused' | 'running';
    refused: string;
    done: string;
    then?: (tx: Tx) => Promise<unknown>;
  },
): Promise<{ message: string }> {
  return ctx.db.transaction().execute(async (tx) => {
    const campaign = await lockVisibleCampaign(tx, actor, id);
    const before = await repo.moveDispatchState(tx, id, move.from, move.to);
    if (!before) throw conflict(move.refused);
    await recordDispatchMove(tx, audit, campaign, { before, after: move.to });
    await move.then?.(tx);
    await publishCampaignProgress(tx, [id]);
    return { message: move.done };
  });
}

/** POST /api/campaigns/{id}/delivery/pause (Admin): a running or waiting campaign pauses. */
export function pauseDispatch(ctx: AppContext, actor: AuthUser, audit: AuditActor, id: string) {
  return moveDispatch(ctx, actor, audit, id, {
    from: ['running', 'waiting'],
    to: 'paused',
    refused: msg.deliveryNotSending,
    done: msg.deliveryPaused,
  });
}

/** POST /api/campaigns/{id}/delivery/resume (Admin): a paused campaign sends again. */
export function resumeDispatch(ctx: AppContext, actor: AuthUser, audit: AuditActor, id: string) {
  return moveDispatch(ctx, actor, audit, id, {
    from: ['paused'],
    to: 'running',
    refused: msg.deliveryNotPaused,
    done: msg.deliveryResumed,
    then: (tx) => addLaneJobs(tx, id),
  });
}

/**
 * The provider told us to stop the whole campaign (an error classified `pause_campaign`, in a
 * send's answer or a status callback): its sending pauses under the row lock every claim takes
 * (the UPDATE takes it), and every Admin is told why, in the same transaction, which also
 * writes its audit entry (Herald's own). Resuming is the
 * Admin's, as after a pause by hand. False when it was not sending (paused already: one notice).
 */
export async function pauseForProvider(
  tx: Tx,
  campaignId: string,
  reason: string,
): Promise<boolean> {
  const paused = await repo.pauseByProvider(tx, campaignId);
  if (!paused) return false;
  // Once per pause, not per message: a paused campaign answers false above.
  await recordDispatchMove(
    tx,
    SYSTEM_ACTOR,
    { id: campaignId, ...paused },
    { before: paused.before, after: 'paused' },
    reason,
  );
  await notifyRole(tx, 'Admin', {
    eventType: 'campaign_status',
    message: msg.notifyCampaignPausedByProvider(paused, reason),
    link: campaignLink(campaignId),
  });
  await publishCampaignProgress(tx, [campaignId]);
  return true;
}
