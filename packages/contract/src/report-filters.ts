import { z } from 'zod';
import { isDeliveredStatus } from './schemas/campaign-actions.js';

/**
 * One vocabulary for a campaign's results (docs/product.md, Campaigns, "Results"): a message
 * read was delivered first, so **Delivered** counts Delivered and Read; **Failed** is every
 * recipient the report does not count as delivered (failed, sent without a receipt, never sent:
 * the report's Failed tile is Total minus Delivered); **Read** is the Read status alone and
 * **Not read** everything else. The report dialog's filter, its CSV export and the
 * "Resend to failed" / "Resend to not read" actions all use these groups.
 */
export const REPORT_FILTERS = ['all', 'delivered', 'read', 'failed', 'not_read'] as const;
export type ReportFilter = (typeof REPORT_FILTERS)[number];
export const ReportFilterSchema = z.enum(REPORT_FILTERS);

export const REPORT_FILTER_LABELS: Readonly<Record<ReportFilter, string>> = {
  all: 'All',
  delivered: 'Delivered (incl. read)',
  read: 'Read',
  failed: 'Failed (not delivered)',
  not_read: 'Not read',
};

/** The report status a provider's read receipt gives (lower case, trimmed). */
export const READ_REPORT_STATUS = 'read';

/** Whether a report row with `status` belongs to `filter` (any case, trimmed). */
export function matchesReportFilter(status: string, filter: ReportFilter): boolean {
  const read = status.trim().toLowerCase() === READ_REPORT_STATUS;
  switch (filter) {
    case 'all':
      return true;
    case 'delivered':
      return isDeliveredStatus(status);
    case 'read':
      return read;
    case 'failed':
      return !isDeliveredStatus(status);
    case 'not_read':
      return !read;
  }
}
