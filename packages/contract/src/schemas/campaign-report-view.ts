import { z } from 'zod';
import { ReportFilterSchema } from '../report-filters.js';
import { server as msg } from '../server-messages.js';
import { CampaignReportQuerySchema } from './campaign-actions.js';

/**
 * What a report view shows (docs/product.md, Campaigns, "Results"): a status group and digits
 * searched within the number. The paged view and the CSV export take the same two.
 */

/** Digits found anywhere in a report row's number (a number has at most 15). */
export const ReportSearchSchema = z.string().regex(/^\d{1,15}$/, msg.reportSearchInvalid);

export const ReportViewFilterSchema = z.object({
  status: ReportFilterSchema.default('all'),
  q: ReportSearchSchema.optional(),
});
export type ReportViewFilter = z.input<typeof ReportViewFilterSchema>;

/** GET /api/campaigns/{id}/report: a keyset page within the filter. */
export const CampaignReportViewQuerySchema = CampaignReportQuerySchema.extend(
  ReportViewFilterSchema.shape,
);
export type CampaignReportViewQuery = z.input<typeof CampaignReportViewQuerySchema>;

/** GET /api/campaigns/{id}/report/export: the rows of the filter as CSV. */
export const ReportExportQuerySchema = ReportViewFilterSchema;
