import {
  canTransition,
  isAwaitingApproval,
  isOwnerCancellable,
  type Campaign,
  type Role,
} from '@herald/contract';

/**
 * What a row's Actions cell can offer (docs/product.md, Campaigns); for the Admin also
 * Approve and Reject while the campaign awaits approval, and while the engine sends: pause,
 * resume, and stop (Change Status to Cancelled).
 */
export type CampaignAction =
  | 'view'
  | 'download'
  | 'report'
  | 'approve'
  | 'reject'
  | 'status'
  | 'upload'
  | 'cancel'
  | 'pause'
  | 'resume'
  | 'stop';

export const ACTION_LABELS: Record<CampaignAction, (c: Campaign) => string> = {
  view: () => 'View',
  download: () => 'Download',
  report: () => 'View Report',
  approve: () => 'Approve',
  reject: () => 'Reject',
  status: () => 'Change Status',
  upload: (c) => (c.reportCount > 0 ? 'Update Report' : 'Upload Report'),
  cancel: () => 'Request Cancellation',
  pause: () => 'Pause Sending',
  resume: () => 'Resume Sending',
  stop: () => 'Cancel Sending',
};

/**
 * The actions a role gets on a campaign: View and Download always; View Report once a report
 * exists; Approve and Reject for Admin while it awaits approval, Change Status and the report
 * upload for Admin; for others a cancellation request
 * while the campaign is Submitted, Pending Approval or Approved.
 */
export function campaignActionsFor(role: Role, c: Campaign): CampaignAction[] {
  const actions: CampaignAction[] = ['view', 'download'];
  if (c.reportCount > 0) actions.push('report');
  if (role === 'Admin') {
    if (isAwaitingApproval(c.status)) actions.push('approve', 'reject');
    actions.push('status', 'upload');
    const dispatch = c.delivery?.dispatchState;
    if (dispatch === 'running' || dispatch === 'waiting') actions.push('pause');
    if (dispatch === 'paused') actions.push('resume');
    const sending = dispatch === 'running' || dispatch === 'waiting' || dispatch === 'paused';
    if (sending && canTransition(c.status, 'Cancelled', 'admin')) actions.push('stop');
  } else if (isOwnerCancellable(c.status)) actions.push('cancel');
  return actions;
}
