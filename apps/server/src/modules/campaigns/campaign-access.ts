import { server as msg } from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';
import { conflict, notFound } from '../../lib/app-error.js';
import { canSee, type Actor } from '../../policies/scope.js';
import { lockCampaign, type LockedCampaign } from './campaign-actions.repo.js';
import { getCampaign, type CampaignView } from './campaigns.repo.js';

/**
 * Scope for campaign actions (docs/product.md, Roles and scope): a campaign is visible to whoever sees
 * its owner. Unknown and out-of-scope ids both answer 404, so neither reveals the other.
 */

export async function visibleCampaign(db: DbOrTx, actor: Actor, id: string): Promise<CampaignView> {
  const row = await getCampaign(db, id);
  if (!row || !canSee(actor, { id: row.user_id, ancestors: row.owner_ancestors })) {
    throw notFound(msg.campaignNotFound);
  }
  return row;
}

/**
 * As `visibleCampaign`, and row-locks the campaign for the rest of the transaction. Another
 * change holding the lock past the pool's lock_timeout (a million-row report upload) answers
 * 409 "try again" rather than a server error.
 */
export async function lockVisibleCampaign(
  tx: Tx,
  actor: Actor,
  id: string,
): Promise<LockedCampaign> {
  const campaign = await lockCampaign(tx, id).catch((err: unknown) => {
    throw isLockTimeout(err) ? conflict(msg.campaignBusy) : err;
  });
  if (!campaign || !canSee(actor, { id: campaign.user_id, ancestors: campaign.owner_ancestors })) {
    throw notFound(msg.campaignNotFound);
  }
  return campaign;
}

function isLockTimeout(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '55P03';
}
