import { useId, type ReactNode } from 'react';
import { Button, Modal, Spinner } from 'react-bootstrap';

interface ConfirmDialogProps {
  show: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  variant?: string;
  busy?: boolean;
  /** Keeps the confirm button off until the dialog's own condition holds (a typed word). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A small yes/no dialog (instead of window.confirm), usable on top of another dialog. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { show, title, children, busy = false, onConfirm, onCancel } = props;
  // The dialog is named by its title (axe: aria-dialog-name).
  const titleId = useId();
  return (
    <Modal
      show={show}
      onHide={busy ? undefined : onCancel}
      size="sm"
      centered
      backdrop="static"
      aria-labelledby={titleId}
    >
      <Modal.Header closeButton={!busy}>
        <Modal.Title id={titleId} as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant={props.variant ?? 'primary'}
          onClick={onConfirm}
          disabled={busy || props.confirmDisabled}
        >
          {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          {props.confirmLabel ?? 'Confirm'}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
