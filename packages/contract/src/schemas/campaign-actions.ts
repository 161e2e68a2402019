import { z } from 'zod';
import { canTransition } from '../campaign-transitions.js';
import type { CampaignStatus } from '../statuses.js';
import { server as msg } from '../server-messages.js';
import { REJECTION_REASON_MAX } from './campaign-approval.js';
import { text } from './common.js';
import { CampaignSchema, CampaignStatusSchema } from './campaigns.js';

/**
 * Campaign actions after creation (docs/product.md, Campaigns): status
 * changes, the owner's cancellation request, delivery reports and the asset download.
 */

/** Statuses in which the owner's credits are refunded (exactly once, re-debited on leaving). */
export const REFUNDED_STATUSES = [
  'Rejected',
  'Cancelled',
] as const satisfies readonly CampaignStatus[];

export function isRefundedStatus(status: CampaignStatus): boolean {
  return (REFUNDED_STATUSES as readonly CampaignStatus[]).includes(status);
}

export const CANCELLATION_REQUESTED = 'Cancellation Requested' satisfies CampaignStatus;

/** Whether the owner may ask to cancel a campaign in `status` (the transition table says). */
export function isOwnerCancellable(status: CampaignStatus): boolean {
  return canTransition(status, CANCELLATION_REQUESTED, 'owner');
}

/**
 * PUT /api/campaigns/status/{id}: the move must be in the transition table for the caller. A
 * move to Rejected may carry the reason the owner reads (as Reject's); the spec's body, the
 * status alone, stays valid.
 */
export const UpdateCampaignStatusBodySchema = z
  .strictObject({
    status: CampaignStatusSchema,
    reason: text().trim().max(REJECTION_REASON_MAX, msg.rejectReasonTooLong).optional(),
  })
  .refine((b) => !b.reason || b.status === 'Rejected', {
    message: msg.reasonOnlyForRejected,
    path: ['reason'],
  });
export type UpdateCampaignStatusBody = z.infer<typeof UpdateCampaignStatusBodySchema>;

export const CampaignReplySchema = z.object({ message: z.string(), campaign: CampaignSchema });
export type CampaignReply = z.infer<typeof CampaignReplySchema>;

/**
 * Report statuses that count as delivered (lower case): a message read was delivered first, so
 * 'Read' (a provider's read receipt, or the delivery engine's report) is green and counted too.
 */
export const DELIVERED_REPORT_STATUSES = ['delivered', 'read'] as const;

/** A report row's status counts as delivered when it reads one of them (any case, trimmed). */
export function isDeliveredStatus(status: string): boolean {
  return (DELIVERED_REPORT_STATUSES as readonly string[]).includes(status.trim().toLowerCase());
}

/** Report CSV column detection (docs/product.md, Campaigns). */
export const REPORT_NUMBER_HEADERS = ['number', 'mobile', 'phone', 'recipient', 'to'] as const;
export const REPORT_STATUS_HEADER = 'status';
/** Largest report CSV accepted (1,000,000 rows of number and status fit well within it). */
export const MAX_REPORT_BYTES = 64 * 1024 * 1024;
/** How many unknown numbers the upload reply lists (the count covers all of them). */
export const REPORT_UNKNOWN_LISTED = 100;

export const ReportSummarySchema = z.object({
  total: z.number(),
  delivered: z.number(),
  failed: z.number(),
});
export type ReportSummary = z.infer<typeof ReportSummarySchema>;

/**
 * One report row: `reason` is the provider's reason for a row not counted delivered ("131026:
 * Message undeliverable"), `changedAt` the recipient's last state change (ISO); both null for a
 * row the delivery engine has no data on (an uploaded report).
 */
export const ReportEntrySchema = z.object({
  recipient: z.string(),
  status: z.string(),
  reason: z.string().nullable(),
  changedAt: z.string().nullable(),
});
export type ReportEntry = z.infer<typeof ReportEntrySchema>;

/** POST /api/campaigns/{id}/upload-report (multipart `reportFile`, Admin only). */
export const UploadReportReplySchema = z.object({
  message: z.string(),
  campaign: CampaignSchema,
  summary: ReportSummarySchema,
  /** Rows whose number is not a recipient of the campaign: counted, first ones listed. */
  unknownCount: z.number(),
  unknownNumbers: z.array(z.string()),
});
export type UploadReportReply = z.infer<typeof UploadReportReplySchema>;

export const REPORT_PAGE_DEFAULT = 500;
export const REPORT_PAGE_MAX = 5000;

/** GET /api/campaigns/{id}/report: entries in recipient order, keyset pages. */
export const CampaignReportQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'Invalid cursor.')
    .optional(),
  limit: z.coerce.number().int().min(1).max(REPORT_PAGE_MAX).default(REPORT_PAGE_DEFAULT),
});
export type CampaignReportQuery = z.input<typeof CampaignReportQuerySchema>;

export const CampaignReportSchema = z.object({
  summary: ReportSummarySchema,
  entries: z.array(ReportEntrySchema),
  nextCursor: z.string().nullable(),
});
export type CampaignReport = z.infer<typeof CampaignReportSchema>;
