import { AWAITING_APPROVAL_LINK, server as msg } from '@herald/contract';
import type { Tx } from '../../db/database.js';
import { notifyRole } from '../notifications/notifications.service.js';

/**
 * A campaign entered the approval queue (created, or moved back to Submitted or Pending
 * Approval): every Active Admin but the one who did it hears of it, in the same transaction
 * (docs/product.md, Campaigns). The link opens the campaign list filtered to the queue.
 */
export function notifyAdminsAwaiting(
  tx: Tx,
  campaign: { name: string; ownerEmail: string },
  actorId: string,
): Promise<void> {
  return notifyRole(
    tx,
    'Admin',
    {
      eventType: 'campaign_approval',
      message: msg.notifyCampaignAwaitingApproval(campaign, campaign.ownerEmail),
      link: AWAITING_APPROVAL_LINK,
    },
    actorId,
  );
}
