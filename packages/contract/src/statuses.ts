/** Campaign lifecycle: the nine statuses with the product's badge colours (Bootstrap variants). */
export const CAMPAIGN_STATUSES = [
  'Submitted',
  'Pending Approval',
  'Approved',
  'Processing',
  'Completed',
  'Rejected',
  'Report Generated',
  'Cancellation Requested',
  'Cancelled',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_STATUS_VARIANTS: Record<CampaignStatus, string> = {
  Submitted: 'secondary',
  'Pending Approval': 'warning',
  Approved: 'info',
  Processing: 'primary',
  Completed: 'success',
  Rejected: 'danger',
  'Report Generated': 'dark',
  'Cancellation Requested': 'warning',
  Cancelled: 'danger',
};

export const TICKET_STATUSES = ['Open', 'In Progress', 'Resolved', 'Closed', 'Escalated'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const TICKET_STATUS_VARIANTS: Record<TicketStatus, string> = {
  Open: 'success',
  'In Progress': 'primary',
  Resolved: 'info',
  Closed: 'secondary',
  Escalated: 'warning',
};

/**
 * A campaign awaits the Admin's decision while Submitted or Pending Approval
 * (docs/product.md, Campaigns): Approve and Reject are offered then, and the Admin's dashboard
 * counts these.
 */
export const AWAITING_APPROVAL_STATUSES = [
  'Submitted',
  'Pending Approval',
] as const satisfies readonly CampaignStatus[];

export function isAwaitingApproval(status: CampaignStatus): boolean {
  return (AWAITING_APPROVAL_STATUSES as readonly CampaignStatus[]).includes(status);
}

/**
 * Statuses after which a campaign's credits are final (rejected and cancelled ones refunded,
 * sent ones charged): the data cleanup deletes only these, and only once the delivery engine has
 * settled them (docs/product.md, Backup and storage).
 */
export const SETTLED_CAMPAIGN_STATUSES = [
  'Completed',
  'Rejected',
  'Report Generated',
  'Cancelled',
] as const satisfies readonly CampaignStatus[];

/** The campaign list's status filter for every campaign awaiting approval (both statuses). */
export const AWAITING_APPROVAL_FILTER = 'Awaiting Approval';
