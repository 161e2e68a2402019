import {
  CAMPAIGN_CREATOR_LABELS,
  type Campaign,
  type CampaignFile,
  type DeliveryProgress,
} from '@herald/contract';
import { canSee, type Actor } from '../../policies/scope.js';
import type { CampaignView, FileView } from './campaigns.repo.js';

/**
 * `createdBy` as `viewer` may see it: the creator's email when the creator is in the viewer's
 * scope (itself or its subtree; Admin: everyone), else only the creator's role. The creator is
 * the owner or a user above it, so a Sub-Reseller or User viewing a campaign its Reseller made
 * for it learns no email from above its own place in the hierarchy.
 */
export function createdByFor(row: CampaignView, viewer: Actor): string {
  const creator = { id: row.creator_id, ancestors: row.creator_ancestors };
  return canSee(viewer, creator) ? row.creator_email : CAMPAIGN_CREATOR_LABELS[row.creator_role];
}

/** A campaign as `viewer` sees it (every campaign answer goes through here). */
export function presentCampaign(row: CampaignView, viewer: Actor): Campaign {
  return {
    _id: row.id,
    name: row.name,
    userEmail: row.owner_email,
    userName: row.owner_name,
    createdBy: createdByFor(row, viewer),
    creditType: row.credit_type,
    message: row.message,
    countryName: row.country_name,
    countryCode: row.country_code,
    ctaCall: row.cta_call,
    ctaCallText: row.cta_call_text,
    ctaURL: row.cta_url,
    ctaURLText: row.cta_url_text,
    status: row.status,
    recipientCount: row.recipient_count,
    reportCount: row.report_count,
    reportDelivered: row.report_delivered,
    createdAt: row.created_at.toISOString(),
    delivery: presentDelivery(row),
    rejectionReason: row.rejection_reason,
    template: row.template,
    test: row.test,
    sendAt: row.send_at?.toISOString() ?? null,
  };
}

/**
 * The engine's totals from the campaign row's running counters (nothing is counted per read);
 * null for a campaign the engine never touched (fulfilled by hand). Sent counts every recipient
 * the provider took (sent, delivered or read now); Delivered counts delivered or read.
 */
export function presentDelivery(row: CampaignView): DeliveryProgress | null {
  if (row.dispatch_state === null) return null;
  return {
    dispatchState: row.dispatch_state,
    simulated: row.simulated,
    total: row.recipient_count,
    sent: row.sent_count + row.delivered_count + row.read_count,
    delivered: row.delivered_count + row.read_count,
    read: row.read_count,
    failed: row.failed_count,
    refunded: row.delivery_refunded,
    resumeAt: row.dispatch_resume_at?.toISOString() ?? null,
    quietHold: row.dispatch_state === 'waiting' && row.dispatch_quiet,
  };
}

export function presentFile(row: FileView): CampaignFile {
  return {
    id: row.id,
    kind: row.kind,
    name: row.original_name,
    mime: row.mime,
    size: Number(row.size),
  };
}
