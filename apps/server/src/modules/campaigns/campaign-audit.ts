import type { AuditChanges, CampaignStatus, DispatchState } from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import { recordAudit, type AuditActor, type AuditTarget } from '../audit/index.js';

/**
 * The audit entries of a campaign's moves (docs/audit.md), one per move, written in the
 * move's own transaction by the few places that move a campaign: the status change and the
 * approval queue (campaign-status.service.ts), a report upload, and the delivery engine's
 * start, pause, resume and settlement.
 */

/** The campaign an entry is about: its owner is the entry's subject. */
export interface AuditedCampaign {
  id: string;
  name: string;
  user_id: string;
}

export function campaignTarget(campaign: AuditedCampaign): AuditTarget {
  return {
    type: 'campaign',
    id: campaign.id,
    label: campaign.name,
    subjectUserId: campaign.user_id,
  };
}

/** A status move, with the Reject's (or the provider's) reason when there is one. */
export function recordStatusMove(
  db: DbOrTx,
  actor: AuditActor,
  campaign: AuditedCampaign,
  status: { before: CampaignStatus; after: CampaignStatus },
  reason: string | null = null,
): Promise<void> {
  const changes: AuditChanges = { status: { before: status.before, after: status.after } };
  if (reason !== null) changes.reason = { before: null, after: reason };
  return recordAudit(db, {
    actor,
    action: 'campaign.status_change',
    target: campaignTarget(campaign),
    changes,
  });
}

/**
 * A move of a Processing campaign's sending (pause, resume, the provider's pause): its status
 * stays, so the entry names the sending's state instead.
 */
export function recordDispatchMove(
  db: DbOrTx,
  actor: AuditActor,
  campaign: AuditedCampaign,
  dispatchState: { before: DispatchState; after: DispatchState },
  reason: string | null = null,
): Promise<void> {
  const changes: AuditChanges = {
    dispatchState: { before: dispatchState.before, after: dispatchState.after },
  };
  if (reason !== null) changes.reason = { before: null, after: reason };
  return recordAudit(db, {
    actor,
    action: 'campaign.status_change',
    target: campaignTarget(campaign),
    changes,
  });
}
