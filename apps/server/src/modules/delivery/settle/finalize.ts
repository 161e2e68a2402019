import { campaignLink, canTransition, server as msg, type CampaignStatus } from '@herald/contract';
import type { AppContext } from '../../../context.js';
import { SYSTEM_ACTOR } from '../../audit/index.js';
import { recordStatusMove } from '../../campaigns/index.js';
import * as ledger from '../../credits/ledger.service.js';
import { publishCampaignProgress } from '../../live/index.js';
import { notify } from '../../notifications/notifications.service.js';
import { buildDeliveryReport } from './delivery-report.repo.js';
import { requestFinalize } from './finalize-request.js';
import * as repo from './finalize.repo.js';

/**
 * Settles a campaign whose sending ended, run by the job runner
 * (TASKS.finalizeCampaign) whenever the dispatcher or a status batch asks. Under the campaign's
 * row lock, and only once (`delivery_settled`): the failed, opted-out and never-sent recipients
 * are refunded in one ledger entry, `charged_count` drops by as much (so a later Admin Cancelled or
 * Rejected gives back only the rest), and a Processing campaign becomes Completed, gets its
 * report built from the recipients' states and becomes Report Generated, each move with its
 * audit entry (Herald's own). A cancelled dispatch
 * is refunded only; its status stays Cancelled. Running twice, or on two instances at once, is
 * harmless: the second run waits for the lock and finds the campaign settled. Status events
 * arriving after settlement move the rows, the counters and the report, never the refund
 * (delivery-report.repo.ts, applyLateMoves, states the rule).
 */

/** How long a sent message may wait for its delivery receipt before the campaign settles without it. */
export const RECEIPT_WAIT_MS = 10 * 60_000;

export interface FinalizeOptions {
  /** Overrides RECEIPT_WAIT_MS (tests). */
  receiptWaitMs?: number;
}

export async function runFinalize(
  ctx: AppContext,
  campaignId: string,
  opts: FinalizeOptions = {},
): Promise<void> {
  const waitMs = opts.receiptWaitMs ?? RECEIPT_WAIT_MS;
  await ctx.db.transaction().execute(async (tx) => {
    const campaign = await repo.lockForSettlement(tx, campaignId);
    if (!campaign || !awaitsSettlement(campaign)) return;
    // In flight: the dispatcher asks again when those sends end.
    if (await repo.hasSending(tx, campaignId)) return;
    const counts = await repo.stateCounts(tx, campaignId, waitMs);
    // Sending ended with rows left unclaimed is the dispatcher's to finish; it asks again.
    if (campaign.dispatch_state === 'done' && counts.unsent > 0) return;
    if (counts.awaiting > 0 && counts.awaitUntil) {
      await requestFinalize(tx, campaignId, counts.awaitUntil);
      return;
    }

    const notDelivered = counts.failed + counts.optedOut + counts.unsent;
    // An uncharged campaign (refunded in full by an Admin's status change) gets nothing back.
    const refund = campaign.charged ? Math.min(notDelivered, campaign.charged_count) : 0;
    if (refund > 0) {
      await ledger.credit(tx, {
        userId: campaign.user_id,
        creditType: campaign.credit_type,
        count: refund,
        // The ledger records who moved credits; the refund is the owner's own money coming back.
        actor: { id: campaign.user_id },
        kind: 'campaign_refund',
        reason: msg.ledgerCampaignNotDelivered(campaign, refund),
        campaignId,
      });
    }
    await repo.markSettled(tx, campaignId, refund);

    let status: CampaignStatus = campaign.status;
    if (status === 'Processing' && canTransition(status, 'Completed', 'system')) {
      status = 'Completed';
      await repo.setStatus(tx, campaignId, status);
      await recordStatusMove(tx, SYSTEM_ACTOR, campaign, { before: 'Processing', after: status });
    }
    if (status === 'Completed' && canTransition(status, 'Report Generated', 'system')) {
      const totals = await buildDeliveryReport(tx, campaignId);
      await repo.setStatus(tx, campaignId, 'Report Generated', {
        count: totals.total,
        delivered: totals.delivered,
      });
      await recordStatusMove(tx, SYSTEM_ACTOR, campaign, {
        before: status,
        after: 'Report Generated',
      });
      // The owner's one notice of the results, with the refund in it (docs/product.md,
      // Announcements and alerts): Completed and Report Generated follow in this transaction.
      await notify(tx, {
        userId: campaign.user_id,
        eventType: 'campaign_report',
        message: msg.notifyCampaignResults(campaign, {
          ...totals,
          refunded: refund,
          creditType: campaign.credit_type,
        }),
        link: campaignLink(campaignId),
      });
    } else if (refund > 0) {
      // Settled without a report of its own (a cancelled send): the refund is the news.
      await notify(tx, {
        userId: campaign.user_id,
        eventType: 'credits',
        message: msg.notifyCampaignRefunded(campaign, refund, campaign.credit_type),
        link: campaignLink(campaignId),
      });
    }
    await publishCampaignProgress(tx, [campaignId]);
  });
}

function awaitsSettlement(d: repo.SettlingCampaign): boolean {
  return !d.delivery_settled && (d.dispatch_state === 'done' || d.dispatch_state === 'cancelled');
}
