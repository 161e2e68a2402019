import {
  campaignLink,
  CANCELLATION_REQUESTED,
  canEverMoveTo,
  canTransition,
  isRefundedStatus,
  server as msg,
  isAwaitingApproval,
  scheduleMessages,
  transitionActorOf,
  type Campaign,
  type CampaignReply,
  type CampaignStatus,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { conflict, forbidden } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import * as ledger from '../credits/ledger.service.js';
import { notify, notifyRole } from '../notifications/notifications.service.js';
import { lockVisibleCampaign } from './campaign-access.js';
import { notifyAdminsAwaiting } from './approval-notice.js';
import { updateCampaign, type LockedCampaign } from './campaign-actions.repo.js';
import { presentCampaign } from './campaigns.presenter.js';
import { getCampaign } from './campaigns.repo.js';
import type { AuditActor } from '../audit/index.js';
import { recordStatusMove } from './campaign-audit.js';
import { holdUntilSendAt } from './campaign-schedule.js';

/**
 * Campaign status changes (docs/product.md, Campaigns), allowed by the contract's transition
 * table: Admin sets any status; anyone else who can see the campaign may only ask to cancel it.
 * The credit side effect, the status, the delivery engine's start or stop (ctx.dispatch, the
 * CampaignDispatch port) and the notifications commit together, under the campaign's row lock.
 */

/**
 * The money rule for a move to `next` (docs/product.md, Credits and the ledger): entering
 * Rejected/Cancelled while charged refunds the debit once; leaving them while not charged debits
 * it again (409 insufficient credits when short, and then the caller's transaction rolls back).
 * Returns the `charged` flag to store.
 */
export async function settleCredits(
  tx: Tx,
  actor: AuthUser,
  campaign: LockedCampaign,
  next: CampaignStatus,
): Promise<boolean> {
  const move = {
    userId: campaign.user_id,
    creditType: campaign.credit_type,
    count: campaign.charged_count,
    actor,
    campaignId: campaign.id,
  };
  if (isRefundedStatus(next) && campaign.charged) {
    if (move.count > 0) {
      await ledger.credit(tx, {
        ...move,
        kind: 'campaign_refund',
        reason: msg.ledgerCampaignRefund(campaign),
      });
    }
    return false;
  }
  if (!isRefundedStatus(next) && !campaign.charged) {
    if (move.count > 0) {
      await ledger.debit(tx, {
        ...move,
        kind: 'campaign_debit',
        reason: msg.ledgerCampaignCharge(campaign),
      });
    }
    return true;
  }
  return campaign.charged;
}

/**
 * The transition table's verdict, in the order a caller meets it: a status the caller may
 * never set is a permission matter (403); the same status again, or a move the table has
 * not for this state, is a conflict with the campaign as it stands (409).
 */
function checkMove(actor: AuthUser, from: CampaignStatus, to: CampaignStatus): void {
  const by = transitionActorOf(actor.role);
  // The owner's side has one move only, so its refusals name it.
  const isOwner = by === 'owner';
  if (!canEverMoveTo(to, by)) throw forbidden(isOwner ? msg.campaignCancelOnly : msg.forbidden);
  if (from === to) throw conflict(msg.campaignStatusUnchanged(to));
  if (!canTransition(from, to, by)) {
    throw conflict(isOwner ? msg.campaignNotCancellable : msg.campaignMoveNotAllowed(from, to));
  }
}

/** PUT /api/campaigns/status/{id}. */
export async function changeStatus(
  ctx: AppContext,
  actor: AuthUser,
  audit: AuditActor,
  id: string,
  next: CampaignStatus,
  reason?: string,
): Promise<CampaignReply> {
  return ctx.db
    .transaction()
    .execute((tx) => changeStatusIn(ctx, tx, actor, audit, id, next, reason));
}

/** A status change in the caller's transaction (the public API's idempotent cancel). */
export async function changeStatusIn(
  ctx: AppContext,
  tx: Tx,
  actor: AuthUser,
  audit: AuditActor,
  id: string,
  next: CampaignStatus,
  reason?: string,
): Promise<CampaignReply> {
  const campaign = await lockVisibleCampaign(tx, actor, id);
  checkMove(actor, campaign.status, next);
  const moved = await moveCampaign(ctx, tx, actor, audit, campaign, next, reason || null);
  return { message: msg.campaignStatusUpdated(next), campaign: moved };
}

/**
 * Moves a locked campaign the caller may move to `next`: the credits, the delivery engine, the
 * status with Reject's `reason` (any other move clears it), its audit entry (`audit` is who
 * asked) and the notifications, in `tx`.
 */
export async function moveCampaign(
  ctx: AppContext,
  tx: Tx,
  actor: AuthUser,
  audit: AuditActor,
  campaign: LockedCampaign,
  next: CampaignStatus,
  reason: string | null = null,
): Promise<Campaign> {
  const id = campaign.id;
  // Any move out of Processing (or to Rejected/Cancelled) stops the delivery engine's
  // sending: its settlement refunds the failed and unsent, so settleCredits must not.
  const stopsEngine = isRefundedStatus(next) || campaign.status === 'Processing';
  const engineCancel = stopsEngine && (await ctx.dispatch.cancel(tx, id));
  const charged = engineCancel ? campaign.charged : await settleCredits(tx, actor, campaign, next);
  await updateCampaign(tx, id, { status: next, charged, rejection_reason: reason });
  // Before the engine's start, whose own move to Processing is the next entry.
  await recordStatusMove(tx, audit, campaign, { before: campaign.status, after: next }, reason);
  // One notice per step (docs/product.md, Announcements and alerts): an approval the engine takes into
  // Processing at once is one "approved and being sent", not two. A campaign whose "Send at"
  // is still ahead stays Approved; its job starts it then (campaign-schedule.ts).
  const engine = next === 'Approved' && ctx.config.delivery.dispatch;
  const scheduled = engine && (await holdUntilSendAt(tx, id));
  const sending = engine && !scheduled && (await ctx.dispatch.start(tx, id));
  let message: string;
  if (reason !== null) message = msg.notifyCampaignRejected(campaign, reason);
  else if (scheduled) message = scheduleMessages.notifyCampaignApprovedScheduled(campaign);
  else if (sending) message = msg.notifyCampaignApprovedSending(campaign);
  else message = msg.notifyCampaignStatus(campaign, next);
  await notify(tx, {
    userId: campaign.user_id,
    eventType: 'campaign_status',
    message,
    link: campaignLink(id),
  });
  // The Admins decide on a cancellation request, so they hear of it.
  if (next === CANCELLATION_REQUESTED && actor.role !== 'Admin') {
    await notifyRole(tx, 'Admin', {
      eventType: 'campaign_status',
      message: msg.notifyCampaignCancelRequested(campaign, actor.email),
      link: campaignLink(id),
    });
  }
  const row = await getCampaign(tx, id);
  if (!row) throw new Error(`campaign ${id} vanished`);
  // Back in the approval queue (an Admin's Change Status): the other Admins hear of it.
  if (isAwaitingApproval(next) && !isAwaitingApproval(campaign.status)) {
    await notifyAdminsAwaiting(tx, { name: row.name, ownerEmail: row.owner_email }, actor.id);
  }
  return presentCampaign(row, actor);
}
