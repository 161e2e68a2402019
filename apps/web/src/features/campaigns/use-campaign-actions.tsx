import { useCallback, useState, type ReactNode } from 'react';
import { CloseButton, Toast, ToastContainer } from 'react-bootstrap';
import {
  CANCELLATION_REQUESTED,
  ui,
  type Campaign,
  type CampaignCopyKind,
  type CampaignStatus,
  type UploadReportReply,
  formatCount,
} from '@herald/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { errorMessage } from '../../lib/api-client';
import { downloadCampaign } from '../../api/campaigns/download-campaign';
import { useUpdateCampaignStatus } from '../../api/campaigns/update-campaign-status';
import { useApproveCampaign } from '../../api/campaigns/approve-campaigns';
import { useSession } from '../../lib/auth-store';
import { lazyNamed, usePreloadWhenIdle } from '../../lib/lazy-named';
import { useControlCampaignDelivery } from '../../api/delivery/control-campaign-delivery';
import {
  COPY_ACTIONS,
  isCopyAction,
  type CampaignAction,
  type CopyAction,
} from './campaign-actions';
// The dialogs load when first opened, or while the page is idle (lib/lazy-named.ts).
const CampaignDetailsDialog = lazyNamed(
  () => import('./campaign-details-dialog'),
  'CampaignDetailsDialog',
);
const ChangeStatusDialog = lazyNamed(() => import('./change-status-dialog'), 'ChangeStatusDialog');
const RejectCampaignDialog = lazyNamed(
  () => import('./reject-campaign-dialog'),
  'RejectCampaignDialog',
);
const CampaignReportDialog = lazyNamed(
  () => import('./report/campaign-report-dialog'),
  'CampaignReportDialog',
);
const UploadReportDialog = lazyNamed(() => import('./upload-report-dialog'), 'UploadReportDialog');
const DIALOGS = [
  CampaignDetailsDialog,
  ChangeStatusDialog,
  RejectCampaignDialog,
  CampaignReportDialog,
  UploadReportDialog,
];

export interface Notice {
  variant: 'success' | 'danger' | 'warning';
  text: ReactNode;
}

const NOTICE_MS = 6000;

type OpenDialog = {
  kind: Exclude<CampaignAction, 'download' | 'pause' | 'resume' | CopyAction>;
  campaign: Campaign;
} | null;

function uploadedNotice(reply: UploadReportReply): Notice {
  if (reply.unknownCount === 0) return { variant: 'success', text: ui.campaigns.reportUploaded };
  const more = reply.unknownCount - reply.unknownNumbers.length;
  return {
    variant: 'warning',
    text: (
      <>
        <div>{ui.campaigns.reportUploaded}</div>
        <div className="small mt-1">
          {formatCount(reply.unknownCount)} number(s) in the file are not recipients of this
          campaign and were not stored: {reply.unknownNumbers.join(', ')}
          {more > 0 && ` and ${formatCount(more)} more`}.
        </div>
      </>
    ),
  };
}

/** Stays in view wherever the row was; successes fade after a while, problems stay. */
function NoticeToast({ notice, onClose }: { notice: Notice | null; onClose: () => void }) {
  return (
    <ToastContainer position="top-end" className="p-3 position-fixed" style={{ zIndex: 1090 }}>
      <Toast
        show={!!notice}
        onClose={onClose}
        bg={notice?.variant}
        autohide={notice?.variant === 'success'}
        delay={NOTICE_MS}
      >
        <Toast.Body className="d-flex gap-2 align-items-start">
          <div className="flex-grow-1">{notice?.text}</div>
          <CloseButton
            variant={notice?.variant === 'warning' ? undefined : 'white'}
            aria-label="Close"
            onClick={onClose}
          />
        </Toast.Body>
      </Toast>
    </ToastContainer>
  );
}

/**
 * The row actions of the campaign tables: the dialogs they open, the download, the
 * cancellation request and the page-level notice each one leaves (`setNotice` lets the page
 * leave one too). Clone and the Resend actions go to `onCopy`: the page's create form fills
 * itself from the campaign.
 */
export function useCampaignActions(onCopy?: (kind: CampaignCopyKind, campaign: Campaign) => void) {
  const isAdmin = useSession()?.user.role === 'Admin';
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [downloadingId, setDownloadingId] = useState<string | null>(null);
  const cancel = useUpdateCampaignStatus();
  const approve = useApproveCampaign();
  const control = useControlCampaignDelivery();
  const { mutate: controlDelivery } = control;
  const close = useCallback(() => setDialog(null), []);
  usePreloadWhenIdle(DIALOGS);

  const onAction = useCallback(
    (action: CampaignAction, campaign: Campaign) => {
      if (isCopyAction(action)) {
        onCopy?.(COPY_ACTIONS[action], campaign);
        return;
      }
      if (action === 'pause' || action === 'resume') {
        controlDelivery(
          { id: campaign._id, action },
          {
            onSuccess: (reply) => setNotice({ variant: 'success', text: reply.message }),
            onError: (err) =>
              setNotice({ variant: 'danger', text: errorMessage(err, ui.delivery.controlFailed) }),
          },
        );
        return;
      }
      if (action !== 'download') {
        setDialog({ kind: action, campaign });
        return;
      }
      setDownloadingId(campaign._id);
      downloadCampaign(campaign._id)
        .catch((err: unknown) =>
          setNotice({ variant: 'danger', text: errorMessage(err, ui.campaigns.downloadFailed) }),
        )
        .finally(() => setDownloadingId((id) => (id === campaign._id ? null : id)));
    },
    [controlDelivery, onCopy],
  );

  const setStatus = (campaign: Campaign, status: CampaignStatus) => {
    cancel.mutate(
      { id: campaign._id, status },
      {
        onSuccess: (reply) =>
          setNotice({
            variant: 'success',
            text: ui.campaigns.statusUpdated(reply.campaign.status),
          }),
        onError: (err) =>
          setNotice({ variant: 'danger', text: errorMessage(err, ui.campaigns.statusFailed) }),
        onSettled: close,
      },
    );
  };

  let dialogs: ReactNode = null;
  const c = dialog?.campaign;
  if (dialog && c) {
    switch (dialog.kind) {
      case 'view':
        dialogs = (
          <CampaignDetailsDialog
            campaign={c}
            onHide={close}
            onDecide={isAdmin ? (kind, campaign) => setDialog({ kind, campaign }) : undefined}
          />
        );
        break;
      case 'approve':
        dialogs = (
          <ConfirmDialog
            show
            title="Approve Campaign"
            confirmLabel="Approve"
            variant="success"
            busy={approve.isPending}
            onConfirm={() =>
              approve.mutate(c._id, {
                onSuccess: () => setNotice({ variant: 'success', text: ui.campaigns.approved }),
                onError: (err) =>
                  setNotice({
                    variant: 'danger',
                    text: errorMessage(err, ui.campaigns.approveFailed),
                  }),
                onSettled: close,
              })
            }
            onCancel={close}
          >
            Approve this campaign of {formatCount(c.recipientCount)} recipients ({c.creditType}) for{' '}
            {c.userName}?
          </ConfirmDialog>
        );
        break;
      case 'reject':
        dialogs = (
          <RejectCampaignDialog
            campaign={c}
            onHide={close}
            onRejected={() => {
              setNotice({ variant: 'success', text: ui.campaigns.rejected });
              close();
            }}
          />
        );
        break;
      case 'report':
        dialogs = <CampaignReportDialog campaign={c} onHide={close} />;
        break;
      case 'status':
        dialogs = (
          <ChangeStatusDialog
            campaign={c}
            onHide={close}
            onUpdated={(status) => {
              setNotice({ variant: 'success', text: ui.campaigns.statusUpdated(status) });
              close();
            }}
          />
        );
        break;
      case 'upload':
        dialogs = (
          <UploadReportDialog
            campaign={c}
            onHide={close}
            onUploaded={(reply) => {
              setNotice(uploadedNotice(reply));
              close();
            }}
          />
        );
        break;
      case 'cancel':
        dialogs = (
          <ConfirmDialog
            show
            title="Request Cancellation"
            confirmLabel="Request Cancellation"
            variant="danger"
            busy={cancel.isPending}
            onConfirm={() => setStatus(c, CANCELLATION_REQUESTED)}
            onCancel={close}
          >
            Ask the administrator to cancel this campaign of {formatCount(c.recipientCount)}{' '}
            recipients ({c.creditType})?
          </ConfirmDialog>
        );
        break;
      case 'stop':
        dialogs = (
          <ConfirmDialog
            show
            title={ui.delivery.cancelTitle}
            confirmLabel={ui.delivery.cancelTitle}
            variant="danger"
            busy={cancel.isPending}
            onConfirm={() => setStatus(c, 'Cancelled')}
            onCancel={close}
          >
            {ui.delivery.cancelText(c.recipientCount)}
          </ConfirmDialog>
        );
        break;
    }
  }

  const overlays = (
    <>
      {dialogs}
      <NoticeToast notice={notice} onClose={() => setNotice(null)} />
    </>
  );
  return { onAction, downloadingId, overlays, setNotice };
}
