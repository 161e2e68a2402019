import { Button, Modal } from 'react-bootstrap';
import {
  defaultCampaignName,
  scheduleUi,
  ui,
  type SenderTemplate,
  formatCount,
} from '@herald/contract';
import { formatSendAt, localInputToIso } from '../../../lib/send-at';
import {
  type CampaignFiles,
  type CampaignFormValues,
  type TypeFeatures,
} from './create-form-logic';
import { MessagePreview } from './message-preview';

interface ConfirmDialogProps {
  show: boolean;
  values: CampaignFormValues;
  files: CampaignFiles;
  features: TypeFeatures;
  /** The WhatsApp template it is sent as, if one. */
  template: SenderTemplate | null;
  recipients: number;
  onConfirm: () => void;
  onBack: () => void;
}

/**
 * The last look before a campaign is created: the message as recipients will see it, then
 * how many recipients, its name and its cost. Confirm creates it; Back leaves the form as it was.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { values, recipients } = props;
  const name = values.name.trim() || defaultCampaignName(values.message);
  const count = formatCount(recipients);
  const sendAt = localInputToIso(values.sendAt);
  return (
    <Modal
      show={props.show}
      onHide={props.onBack}
      centered
      scrollable
      aria-labelledby="confirm-title"
    >
      <Modal.Header closeButton>
        <Modal.Title id="confirm-title" as="h2" className="h5">
          {ui.campaigns.confirmTitle}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <MessagePreview values={values} files={props.files} features={props.features} />
        <dl className="row small mt-3 mb-0">
          <dt className="col-4">Name</dt>
          <dd className="col-8 text-break">{name}</dd>
          {props.template && (
            <>
              <dt className="col-4">{ui.templates.templateLabel}</dt>
              <dd className="col-8 text-break">
                {ui.templates.optionLabel(props.template.name, props.template.language)}
              </dd>
            </>
          )}
          <dt className="col-4">Recipients</dt>
          <dd className="col-8">{count}</dd>
          <dt className="col-4">Cost</dt>
          <dd className="col-8">{ui.campaigns.confirmCost(count, values.creditType)}</dd>
          {sendAt && (
            <>
              <dt className="col-4">{scheduleUi.detailsLabel}</dt>
              <dd className="col-8">{scheduleUi.confirmLine(formatSendAt(sendAt))}</dd>
            </>
          )}
        </dl>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={props.onBack}>
          Back
        </Button>
        <Button variant="primary" onClick={props.onConfirm} autoFocus>
          Confirm
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
