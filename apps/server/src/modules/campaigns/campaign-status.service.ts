import {
  isOwnerCancellable,
  isRefundedStatus,
  server as msg,
  type CampaignReply,
  type CampaignStatus,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { conflict, forbidden } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import * as ledger from '../credits/ledger.service.js';
import { notify, notifyRole } from '../notifications/notifications.repo.js';
import { lockVisibleCampaign } from './campaign-access.js';
import { updateCampaign, type LockedCampaign } from './campaign-actions.repo.js';
import { presentCampaign } from './campaigns.presenter.js';
import { getCampaign } from './campaigns.repo.js';

/**
 * Campaign status changes (spec 4; decisions.md sections 3 and 4). Admin sets any status;
 * anyone else who can see the campaign may only ask to cancel it. The credit side effect,
 * the status and the notifications commit together, under the campaign's row lock.
 */

export const CAMPAIGNS_LINK = '/campaigns';
const CANCEL_REQUESTED: CampaignStatus = 'Cancellation Requested';

/**
 * The money rule of decisions.md section 3, for a move to `next`: entering Rejected/Cancelled
 * while charged refunds the debit once; leaving them while not charged debits it again (409
 * insufficient credits when short, and then the caller's transaction rolls back). Returns
 * the `charged` flag to store.
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
        reason: `Refund for campaign ${campaign.id}`,
      });
    }
    return false;
  }
  if (!isRefundedStatus(next) && !campaign.charged) {
    if (move.count > 0) {
      await ledger.debit(tx, {
        ...move,
        kind: 'campaign_debit',
        reason: `Campaign ${campaign.id}`,
      });
    }
    return true;
  }
  return campaign.charged;
}

/** The permission rules, in the order a caller meets them. */
function checkMove(actor: AuthUser, campaign: LockedCampaign, next: CampaignStatus): void {
  if (actor.role !== 'Admin') {
    if (next !== CANCEL_REQUESTED) throw forbidden(msg.campaignCancelOnly);
    if (campaign.status === next) throw conflict(msg.campaignStatusUnchanged(next));
    if (!isOwnerCancellable(campaign.status)) throw conflict(msg.campaignNotCancellable);
    return;
  }
  if (campaign.status === next) throw conflict(msg.campaignStatusUnchanged(next));
}

/** PUT /api/campaigns/status/{id}. */
export async function changeStatus(
  ctx: AppContext,
  actor: AuthUser,
  id: string,
  next: CampaignStatus,
): Promise<CampaignReply> {
  return ctx.db.transaction().execute(async (tx) => {
    const campaign = await lockVisibleCampaign(tx, actor, id);
    checkMove(actor, campaign, next);
    const charged = await settleCredits(tx, actor, campaign, next);
    await updateCampaign(tx, id, { status: next, charged });
    await notify(tx, {
      userId: campaign.user_id,
      eventType: 'campaign_status',
      message: msg.notifyCampaignStatus(id, next),
      link: CAMPAIGNS_LINK,
    });
    // The Admins decide on a cancellation request, so they hear of it.
    if (next === CANCEL_REQUESTED && actor.role !== 'Admin') {
      await notifyRole(tx, 'Admin', {
        eventType: 'campaign_status',
        message: msg.notifyCampaignCancelRequested(id, actor.email),
        link: CAMPAIGNS_LINK,
      });
    }
    const row = await getCampaign(tx, id);
    if (!row) throw new Error(`campaign ${id} vanished`);
    return { message: msg.campaignStatusUpdated(next), campaign: presentCampaign(row) };
  });
}
