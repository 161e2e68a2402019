import { z } from 'zod';
import { server as msg } from '../server-messages.js';
import { text } from './common.js';
import { CampaignSchema } from './campaigns.js';

/**
 * The Admin's approval queue (docs/product.md, Campaigns): Approve or Reject a campaign that is
 * Submitted or Pending Approval, one at a time or several approved at once.
 */

/** The longest rejection reason; the owner reads it in the bell and in the campaign details. */
export const REJECTION_REASON_MAX = 500;
/** The most campaigns one "Approve selected" may carry. */
export const BULK_APPROVE_MAX = 100;

/** POST /api/campaigns/{id}/reject. */
export const RejectCampaignBodySchema = z.strictObject({
  reason: text({ error: msg.rejectReasonRequired })
    .trim()
    .min(1, msg.rejectReasonRequired)
    .max(REJECTION_REASON_MAX, msg.rejectReasonTooLong),
});
export type RejectCampaignBody = z.infer<typeof RejectCampaignBodySchema>;

/** POST /api/campaigns/approve: the ids of the campaigns to approve (duplicates count once). */
export const BulkApproveBodySchema = z.strictObject({
  ids: z
    .array(z.uuid('Not found.'), msg.bulkApproveEmpty)
    .min(1, msg.bulkApproveEmpty)
    .max(BULK_APPROVE_MAX, msg.bulkApproveTooMany),
});
export type BulkApproveBody = z.infer<typeof BulkApproveBodySchema>;

/**
 * Each id's outcome, in the order asked: `approved` with the campaign as it now stands, or not,
 * with the reason (not found, not awaiting approval, insufficient credits…). One campaign's
 * refusal never undoes another's approval.
 */
export const BulkApproveResultSchema = z.discriminatedUnion('approved', [
  z.object({ id: z.string(), approved: z.literal(true), campaign: CampaignSchema }),
  z.object({ id: z.string(), approved: z.literal(false), message: z.string() }),
]);
export type BulkApproveResult = z.infer<typeof BulkApproveResultSchema>;

export const BulkApproveReplySchema = z.object({
  message: z.string(),
  approvedCount: z.number(),
  refusedCount: z.number(),
  results: z.array(BulkApproveResultSchema),
});
export type BulkApproveReply = z.infer<typeof BulkApproveReplySchema>;

/** GET /api/campaigns/{id}/files/{fileId}: one media file of a campaign the caller sees. */
export const CampaignFileParamsSchema = z.object({
  id: z.uuid('Not found.'),
  fileId: z.uuid('Not found.'),
});
export type CampaignFileParams = z.infer<typeof CampaignFileParamsSchema>;

/** The path of one campaign media file (the details dialog previews it). */
export const campaignFilePath = (campaignId: string, fileId: string) =>
  `/api/campaigns/${campaignId}/files/${fileId}`;
