import {
  isAwaitingApproval,
  server as msg,
  type BulkApproveReply,
  type BulkApproveResult,
  type CampaignReply,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import { AppError, conflict, forbidden } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { lockVisibleCampaign } from './campaign-access.js';
import { moveCampaign } from './campaign-status.service.js';
import type { AuditActor } from '../audit/index.js';

/**
 * The Admin's approval queue (docs/product.md, Campaigns): Approve and Reject take a campaign
 * that is Submitted or Pending Approval to Approved or Rejected. They are the Admin's moves of
 * the transition table, narrowed to the queue: any other status answers 409, so a campaign
 * another Admin decided on a moment ago is not decided twice. Reject stores its reason, which
 * the owner reads in the bell and the campaign details.
 */

type Decision = { to: 'Approved'; reason: null } | { to: 'Rejected'; reason: string };

async function decide(
  ctx: AppContext,
  actor: AuthUser,
  audit: AuditActor,
  id: string,
  decision: Decision,
): Promise<CampaignReply> {
  // The routes admit the Admin only; the rule is stated here too, where it is decided.
  if (actor.role !== 'Admin') throw forbidden(msg.forbidden);
  return ctx.db.transaction().execute(async (tx) => {
    const campaign = await lockVisibleCampaign(tx, actor, id);
    if (!isAwaitingApproval(campaign.status)) {
      throw conflict(msg.campaignNotAwaitingApproval(campaign.status));
    }
    const moved = await moveCampaign(ctx, tx, actor, audit, campaign, decision.to, decision.reason);
    const message = decision.to === 'Approved' ? msg.campaignApproved : msg.campaignRejected;
    return { message, campaign: moved };
  });
}

/** POST /api/campaigns/{id}/approve. */
export function approveCampaign(ctx: AppContext, actor: AuthUser, audit: AuditActor, id: string) {
  return decide(ctx, actor, audit, id, { to: 'Approved', reason: null });
}

/** POST /api/campaigns/{id}/reject: `reason` is the contract's trimmed 1 to 500 characters. */
export function rejectCampaign(
  ctx: AppContext,
  actor: AuthUser,
  audit: AuditActor,
  id: string,
  reason: string,
) {
  return decide(ctx, actor, audit, id, { to: 'Rejected', reason });
}

/**
 * POST /api/campaigns/approve: each campaign in its own transaction, in the order asked
 * (an id listed twice is decided once), so one refusal (not found, no longer awaiting
 * approval, busy) never undoes another's approval. A refusal is reported with the message a
 * single Approve would have answered; anything unexpected still fails the request.
 */
export async function approveCampaigns(
  ctx: AppContext,
  actor: AuthUser,
  audit: AuditActor,
  ids: readonly string[],
): Promise<BulkApproveReply> {
  if (actor.role !== 'Admin') throw forbidden(msg.forbidden);
  const results: BulkApproveResult[] = [];
  for (const id of new Set(ids)) {
    try {
      const { campaign } = await approveCampaign(ctx, actor, audit, id);
      results.push({ id, approved: true, campaign });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      results.push({ id, approved: false, message: err.message });
    }
  }
  const approvedCount = results.filter((r) => r.approved).length;
  const refusedCount = results.length - approvedCount;
  return {
    message: msg.bulkApproveResult(approvedCount, refusedCount),
    approvedCount,
    refusedCount,
    results,
  };
}
