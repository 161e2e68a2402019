import { useId, type ReactNode } from 'react';
import { Alert, Button, ListGroup, Modal, Table } from 'react-bootstrap';
import { CAMPAIGN_STATUS_VARIANTS, ui, type Campaign, type CampaignDetail } from '@herald/contract';
import { LoadingSpinner } from '../../components/loading-spinner';
import { StatusBadge } from '../../components/status-badge';
import { errorMessage } from '../../lib/api-client';
import { formatBytes, formatDateTime, orDash } from '../../lib/format';
import { useCampaign } from '../../api/campaigns/get-campaign';
import { CampaignRecipientsList } from './campaign-recipients-list';
import { DeliveryBreakdownSection } from './delivery/delivery-breakdown';

const FILE_KIND_LABELS: Record<CampaignDetail['files'][number]['kind'], string> = {
  dp: 'DP',
  singleCreative: 'Single creative',
  image: 'Image',
  pdf: 'PDF',
  video: 'Video',
  audio: 'Audio',
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <tr>
      <th scope="row" className="text-nowrap text-muted fw-normal w-25">
        {label}
      </th>
      <td className="text-break">{children}</td>
    </tr>
  );
}

function DetailBody({ c }: { c: CampaignDetail }) {
  return (
    <>
      <Table size="sm" className="mb-3">
        <tbody>
          <Field label="Campaign Name">{c.name}</Field>
          <Field label="Campaign For">
            {c.userName} ({c.userEmail})
          </Field>
          <Field label="Created By">{c.createdBy}</Field>
          <Field label="Created At">{formatDateTime(c.createdAt)}</Field>
          <Field label="Type">{c.creditType}</Field>
          <Field label="Status">
            <StatusBadge label={c.status} variant={CAMPAIGN_STATUS_VARIANTS[c.status]} />
          </Field>
          <Field label="Message">
            <span style={{ whiteSpace: 'pre-wrap' }}>{c.message}</span>
          </Field>
          {(c.countryName || c.countryCode) && (
            <Field label="Country">
              {orDash(c.countryName)} ({orDash(c.countryCode)})
            </Field>
          )}
          {(c.ctaCall || c.ctaCallText) && (
            <Field label="Call Button">
              {orDash(c.ctaCallText)}: {orDash(c.ctaCall)}
            </Field>
          )}
          {(c.ctaURL || c.ctaURLText) && (
            <Field label="URL Button">
              {orDash(c.ctaURLText)}: {orDash(c.ctaURL)}
            </Field>
          )}
          <Field label="Recipients">{c.recipientCount.toLocaleString()}</Field>
          <Field label="Report Rows">{c.reportCount.toLocaleString()}</Field>
        </tbody>
      </Table>
      <DeliveryBreakdownSection campaign={c} />
      <h3 className="h6">Files</h3>
      {c.files.length === 0 ? (
        <p className="text-muted small">No files.</p>
      ) : (
        <ListGroup className="mb-3" aria-label="Files">
          {c.files.map((f) => (
            <ListGroup.Item key={f.id} className="d-flex justify-content-between gap-2">
              <span className="text-break">
                <span className="text-muted me-2">{FILE_KIND_LABELS[f.kind]}</span>
                {f.name}
              </span>
              <span className="text-muted text-nowrap small">{formatBytes(f.size)}</span>
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
      <h3 className="h6">Recipients</h3>
      <CampaignRecipientsList campaign={c} />
    </>
  );
}

/** View: every field of one campaign, its files and its recipients, paged. */
export function CampaignDetailsDialog({
  campaign,
  onHide,
}: {
  campaign: Campaign;
  onHide: () => void;
}) {
  const titleId = useId();
  const detail = useCampaign(campaign._id);
  let body;
  if (detail.isPending) body = <LoadingSpinner label="Loading campaign..." />;
  else if (detail.isError) {
    body = <Alert variant="danger">{errorMessage(detail.error, ui.campaigns.loadFailed)}</Alert>;
  } else body = <DetailBody c={detail.data} />;
  return (
    <Modal aria-labelledby={titleId} show onHide={onHide} size="lg" scrollable>
      <Modal.Header closeButton>
        <Modal.Title id={titleId} as="h2" className="h5">
          Campaign Details
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{body}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
