import { useId, useState } from 'react';
import { Alert, Button, Modal, Spinner } from 'react-bootstrap';
import {
  REJECTION_REASON_MAX,
  RejectCampaignBodySchema,
  ui,
  type Campaign,
  formatCount,
} from '@herald/contract';
import { TextField } from '../../components/form-field';
import { errorMessage } from '../../lib/api-client';
import { useRejectCampaign } from '../../api/campaigns/approve-campaigns';

interface RejectCampaignDialogProps {
  campaign: Campaign;
  onHide: () => void;
  onRejected: () => void;
}

/**
 * Reject (Admin): asks the reason, up to REJECTION_REASON_MAX characters, checked with the
 * contract's schema as the server checks it; the owner reads it in the bell and the details.
 */
export function RejectCampaignDialog({ campaign, onHide, onRejected }: RejectCampaignDialogProps) {
  const titleId = useId();
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const reject = useRejectCampaign();
  const parsed = RejectCampaignBodySchema.safeParse({ reason });
  const error = tried && !parsed.success ? parsed.error.issues[0]?.message : undefined;
  const submit = () => {
    setTried(true);
    if (!parsed.success) return;
    reject.mutate({ id: campaign._id, reason: parsed.data.reason }, { onSuccess: onRejected });
  };
  const busy = reject.isPending;
  return (
    <Modal aria-labelledby={titleId} show onHide={busy ? undefined : onHide} centered>
      <Modal.Header closeButton={!busy}>
        <Modal.Title id={titleId} as="h2" className="h5">
          Reject Campaign
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-muted">
          {campaign.userName} · {campaign.creditType} · {formatCount(campaign.recipientCount)}{' '}
          recipients. The credits are refunded to the owner, who sees the reason.
        </p>
        <TextField
          controlId="campaign-reject-reason"
          label="Reason"
          rows={4}
          value={reason}
          onChange={setReason}
          error={error}
          hint={`${reason.trim().length} / ${REJECTION_REASON_MAX} characters`}
          disabled={busy}
          className="mb-0"
        />
        {reject.isError && (
          <Alert variant="danger" className="mt-3 mb-0">
            {errorMessage(reject.error, ui.campaigns.rejectFailed)}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" onClick={submit} disabled={busy}>
          {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Reject
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
