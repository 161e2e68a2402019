import { useId } from 'react';
import { Button, Modal } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { SecretField } from './secret-field';

const t = ui.webhooks;

export interface ShownSecret {
  url: string;
  /** The server's message with it (made, or rotated). */
  message: string;
  secret: string;
}

/**
 * An endpoint's signing secret, just made or rotated, shown this once: the server's message, the
 * `whsec_…` value with a Copy button, and Done. It closes only by Done or the close button, so a
 * stray click beside it does not lose the secret.
 */
export function WebhookSecretDialog({
  shown,
  onDone,
}: {
  shown: ShownSecret | null;
  onDone: () => void;
}) {
  const titleId = useId();
  return (
    <Modal
      show={shown !== null}
      onHide={onDone}
      backdrop="static"
      centered
      aria-labelledby={titleId}
    >
      <Modal.Header closeButton>
        <Modal.Title id={titleId} as="h2" className="h5">
          {t.secretTitle}
        </Modal.Title>
      </Modal.Header>
      {shown && (
        <Modal.Body>
          <p className="text-break mb-1 font-monospace small">{shown.url}</p>
          <p className="mb-2">{shown.message}</p>
          <SecretField
            controlId="webhook-secret"
            label={t.secretLabel}
            secret={shown.secret}
            hint={t.secretHint}
          />
        </Modal.Body>
      )}
      <Modal.Footer>
        <Button onClick={onDone}>{ui.apiKeys.secretDone}</Button>
      </Modal.Footer>
    </Modal>
  );
}
