import { useId, type ReactNode } from 'react';
import { Alert, Button, Modal, Table } from 'react-bootstrap';
import {
  CAMPAIGN_STATUS_VARIANTS,
  campaignResults,
  isAwaitingApproval,
  scheduleUi,
  ui,
  type Campaign,
  type CampaignDetail,
  type CampaignTemplate,
  formatCount,
} from '@herald/contract';
import { LoadingSpinner } from '../../components/loading-spinner';
import { StatusBadge } from '../../components/status-badge';
import { formatSendAt } from '../../lib/send-at';
import { ScheduledFor } from './scheduled-for';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime, orDash } from '../../lib/format';
import { useCampaign } from '../../api/campaigns/get-campaign';
import { CampaignMedia } from './campaign-media';
import { CampaignRecipientsList } from './campaign-recipients-list';
import './campaigns.css';
import { DeliveryBreakdownSection } from './delivery/delivery-breakdown';
import { ResultsLine } from './delivery/delivery-progress';
import { TestBadge } from '../../components/test-badge';

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

/** The WhatsApp template a campaign is sent as: its name, language and each variable's value. */
function TemplateValues({ template }: { template: CampaignTemplate }) {
  const { bodyParameters: values } = template;
  return (
    <div data-testid="campaign-template">
      <div>{ui.templates.optionLabel(template.name, template.language)}</div>
      {values.length > 0 && (
        <ul className="list-unstyled small mb-0" aria-label={ui.templates.detailsValues}>
          {values.map((v, i) => (
            <li key={i}>
              <span className="text-muted">{`{{${i + 1}}}`}</span> {v}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function DetailBody({ c }: { c: CampaignDetail }) {
  const results = campaignResults(c);
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
            <TestBadge test={c.test} />
            <ScheduledFor campaign={c} />
          </Field>
          {c.sendAt !== null && (
            <Field label={scheduleUi.detailsLabel}>{formatSendAt(c.sendAt)}</Field>
          )}
          {c.rejectionReason !== null && (
            <Field label="Rejection Reason">
              <span style={{ whiteSpace: 'pre-wrap' }} data-testid="campaign-rejection-reason">
                {c.rejectionReason}
              </span>
            </Field>
          )}
          <Field label="Message">
            <span style={{ whiteSpace: 'pre-wrap' }}>{c.message}</span>
          </Field>
          {c.template && (
            <Field label={ui.templates.detailsLabel}>
              <TemplateValues template={c.template} />
            </Field>
          )}
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
          <Field label="Recipients">{formatCount(c.recipientCount)}</Field>
          <Field label="Report Rows">{formatCount(c.reportCount)}</Field>
          {/* An engine-sent campaign shows its results in the delivery section below. */}
          {!c.delivery && results && (
            <Field label="Results">
              <ResultsLine results={results} />
            </Field>
          )}
        </tbody>
      </Table>
      <DeliveryBreakdownSection campaign={c} />
      <h3 className="h6">Files</h3>
      <CampaignMedia campaignId={c._id} files={c.files} />
      <h3 className="h6">Recipients</h3>
      <CampaignRecipientsList campaign={c} />
    </>
  );
}

/**
 * View: every field of one campaign, its media as it will be sent and its recipients, paged.
 * `onDecide` (the Admin, while the campaign awaits approval) adds Approve and Reject.
 */
export function CampaignDetailsDialog({
  campaign,
  onHide,
  onDecide,
}: {
  campaign: Campaign;
  onHide: () => void;
  onDecide?: ((decision: 'approve' | 'reject', campaign: Campaign) => void) | undefined;
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
        {onDecide && detail.data && isAwaitingApproval(detail.data.status) && (
          <>
            <Button variant="success" onClick={() => onDecide('approve', campaign)}>
              Approve
            </Button>
            <Button variant="outline-danger" onClick={() => onDecide('reject', campaign)}>
              Reject
            </Button>
          </>
        )}
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
