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
