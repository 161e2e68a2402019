import {
  campaignCopyUi,
  canTransition,
  isAwaitingApproval,
  isOwnerCancellable,
  type Campaign,
  type CampaignCopyKind,
  type Role,
} from '@herald/contract';

/**
 * What a row's Actions cell can offer (docs/product.md, Campaigns); for the Admin also
 * Approve and Reject while the campaign awaits approval, and while the engine sends: pause,
 * resume, and stop (Change Status to Cancelled). Clone and the two Resend actions fill the
 * create form from the campaign (docs/product.md, Campaigns, "Clone and resend").
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
  | 'stop'
  | 'clone'
  | 'resendFailed'
  | 'resendNotRead';

/** The actions that fill the create form, and which numbers each copies. */
export const COPY_ACTIONS = {
  clone: 'all',
  resendFailed: 'failed',
  resendNotRead: 'not_read',
} as const satisfies Partial<Record<CampaignAction, CampaignCopyKind>>;
export type CopyAction = keyof typeof COPY_ACTIONS;

export const isCopyAction = (a: CampaignAction): a is CopyAction => a in COPY_ACTIONS;

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
  clone: () => campaignCopyUi.actionLabels.all,
  resendFailed: () => campaignCopyUi.actionLabels.failed,
  resendNotRead: () => campaignCopyUi.actionLabels.not_read,
};

/**
 * The actions a role gets on a campaign: View and Download always; View Report once a report
 * exists; Approve and Reject for Admin while it awaits approval, Change Status and the report
 * upload for Admin; for others a cancellation request
 * while the campaign is Submitted, Pending Approval or Approved. Clone for every role (whoever
 * sees a campaign may create one for its owner: itself or a user below it); Resend to failed
 * and to not read once a report exists (whether a group is empty is known only once its numbers
 * are fetched, and the form says so then).
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
  actions.push('clone');
  // Each resend only when its group may hold someone: none failed, or all known to have read,
  // leaves nothing to resend (read is known only from the delivery engine).
  if (c.reportCount > c.reportDelivered) actions.push('resendFailed');
  if (c.reportCount > 0 && (c.delivery?.read ?? 0) < c.reportCount) actions.push('resendNotRead');
  return actions;
}
