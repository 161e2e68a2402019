import { useId, useState } from 'react';
import { Alert, Button, Form, Modal, Spinner } from 'react-bootstrap';
import { ui, type Campaign, type UploadReportReply, formatCount } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { useUploadCampaignReport } from '../../api/campaigns/upload-campaign-report';

interface UploadReportDialogProps {
  campaign: Campaign;
  onHide: () => void;
  onUploaded: (reply: UploadReportReply) => void;
}

/** Admin uploads or replaces a campaign's delivery report (a .csv). */
export function UploadReportDialog({ campaign, onHide, onUploaded }: UploadReportDialogProps) {
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const titleId = useId();
  const upload = useUploadCampaignReport();
  const submit = () => {
    if (!file) {
      setMissing(true);
      return;
    }
    upload.mutate({ id: campaign._id, file }, { onSuccess: onUploaded });
  };
  const title = campaign.reportCount > 0 ? 'Update Report' : 'Upload Report';
  return (
    <Modal aria-labelledby={titleId} show onHide={upload.isPending ? undefined : onHide} centered>
      <Modal.Header closeButton={!upload.isPending}>
        <Modal.Title id={titleId} as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-muted">
          {campaign.userName} · {campaign.creditType} · {formatCount(campaign.recipientCount)}{' '}
          recipients
          {campaign.reportCount > 0 &&
            ` · the current report (${formatCount(campaign.reportCount)} rows) is replaced`}
        </p>
        <Form.Group controlId="campaign-report-file">
          <Form.Label>Report File (.csv)</Form.Label>
          <Form.Control
            type="file"
            accept=".csv,text/csv"
            isInvalid={missing}
            onChange={(e) => {
              const input = e.target as HTMLInputElement;
              setFile(input.files?.[0] ?? null);
              setMissing(false);
            }}
          />
          <Form.Control.Feedback type="invalid">
            {ui.campaigns.selectReportFile}
          </Form.Control.Feedback>
          <Form.Text muted>
            Columns: the recipient number (number, mobile, phone, recipient or to) and status.
          </Form.Text>
        </Form.Group>
        {upload.isError && (
          <Alert variant="danger" className="mt-3 mb-0">
            {errorMessage(upload.error, ui.campaigns.reportUploadFailed)}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide} disabled={upload.isPending}>
          Cancel
        </Button>
        <Button variant="primary" onClick={submit} disabled={upload.isPending}>
          {upload.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Upload
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
