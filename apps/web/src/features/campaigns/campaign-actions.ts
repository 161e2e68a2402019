import { isOwnerCancellable, type Campaign, type Role } from '@herald/contract';

/** What a row's Actions cell can offer (spec 2.9; decisions.md section 4). */
export type CampaignAction = 'view' | 'download' | 'report' | 'status' | 'upload' | 'cancel';

export const ACTION_LABELS: Record<CampaignAction, (c: Campaign) => string> = {
  view: () => 'View',
  download: () => 'Download',
  report: () => 'View Report',
  status: () => 'Change Status',
  upload: (c) => (c.reportCount > 0 ? 'Update Report' : 'Upload Report'),
  cancel: () => 'Request Cancellation',
};

/**
 * The actions a role gets on a campaign: View and Download always; View Report once a report
 * exists; Change Status and the report upload for Admin; for others a cancellation request
 * while the campaign is Submitted, Pending Approval or Approved.
 */
export function campaignActionsFor(role: Role, c: Campaign): CampaignAction[] {
  const actions: CampaignAction[] = ['view', 'download'];
  if (c.reportCount > 0) actions.push('report');
  if (role === 'Admin') actions.push('status', 'upload');
  else if (isOwnerCancellable(c.status)) actions.push('cancel');
  return actions;
}
