import { useId, useState } from 'react';
import { Alert, Button, Form, Modal, Spinner } from 'react-bootstrap';
import {
  CAMPAIGN_STATUSES,
  CampaignStatusSchema,
  REJECTION_REASON_MAX,
  UpdateCampaignStatusBodySchema,
  transitionTargets,
  ui,
  type Campaign,
  type CampaignStatus,
  formatCount,
} from '@herald/contract';
import { TextField } from '../../components/form-field';
import { errorMessage } from '../../lib/api-client';
import { useUpdateCampaignStatus } from '../../api/campaigns/update-campaign-status';

interface ChangeStatusDialogProps {
  campaign: Campaign;
  onHide: () => void;
  onUpdated: (status: CampaignStatus) => void;
}

/**
 * Admin's Change Status: the current status and every status the transition table lets
 * the Admin set from it, in the lifecycle's order. Rejected asks for the reason the owner will
 * read (optional here, as the status alone is a valid request; Reject in the queue requires it).
 */
export function ChangeStatusDialog({ campaign, onHide, onUpdated }: ChangeStatusDialogProps) {
  const [status, setStatus] = useState<CampaignStatus>(campaign.status);
  const targets = transitionTargets(campaign.status, 'admin');
  const options = CAMPAIGN_STATUSES.filter((s) => s === campaign.status || targets.includes(s));
  const titleId = useId();
  const update = useUpdateCampaignStatus();
  const [reason, setReason] = useState('');
  const rejecting = status === 'Rejected';
  const body = { status, ...(rejecting && reason.trim() ? { reason } : {}) };
  const parsed = UpdateCampaignStatusBodySchema.safeParse(body);
  const reasonError = parsed.success ? undefined : parsed.error.issues[0]?.message;
  const submit = () => {
    if (!parsed.success) return;
    update.mutate(
      { id: campaign._id, ...parsed.data },
      { onSuccess: (reply) => onUpdated(reply.campaign.status) },
    );
  };
  return (
    <Modal aria-labelledby={titleId} show onHide={update.isPending ? undefined : onHide} centered>
      <Modal.Header closeButton={!update.isPending}>
        <Modal.Title id={titleId} as="h2" className="h5">
          Change Status
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-muted">
          {campaign.userName} · {campaign.creditType} · {formatCount(campaign.recipientCount)}{' '}
          recipients
        </p>
        <Form.Group controlId="campaign-new-status">
          <Form.Label>Status</Form.Label>
          <Form.Select
            value={status}
            onChange={(e) => {
              const parsed = CampaignStatusSchema.safeParse(e.target.value);
              if (parsed.success) setStatus(parsed.data);
            }}
          >
            {options.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {rejecting && (
          <TextField
            controlId="campaign-status-reason"
            label="Reason (the owner reads it)"
            rows={3}
            value={reason}
            onChange={setReason}
            error={reasonError}
            hint={`${reason.trim().length} / ${REJECTION_REASON_MAX} characters`}
            disabled={update.isPending}
            className="mt-3 mb-0"
          />
        )}
        {update.isError && (
          <Alert variant="danger" className="mt-3 mb-0">
            {errorMessage(update.error, ui.campaigns.statusFailed)}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide} disabled={update.isPending}>
          Cancel
        </Button>
        <Button
          variant="primary"
          onClick={submit}
          disabled={update.isPending || status === campaign.status || !parsed.success}
        >
          {update.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Update
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
