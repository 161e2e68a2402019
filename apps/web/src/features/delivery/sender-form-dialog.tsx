import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Form, Modal, Spinner } from 'react-bootstrap';
import { ui, type Sender } from '@herald/contract';
import type { FieldErrors } from '../../components/field-errors';
import { errorMessage } from '../../lib/api-client';
import { useUpdateSender } from '../../api/delivery/update-sender';
import { parseSenderForm, senderFormValues, type SenderFormValues } from './sender-form';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';

interface SenderFormDialogProps {
  sender: Sender;
  onHide: () => void;
  onSaved: (sender: Sender) => void;
}

/** Edit one sender's rate per second and daily limit (Admin). */
export function SenderFormDialog({ sender, onHide, onSaved }: SenderFormDialogProps) {
  const titleId = useId();
  const [values, setValues] = useState<SenderFormValues>(() => senderFormValues(sender));
  const [errors, setErrors] = useState<FieldErrors>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const update = useUpdateSender();
  const set = (patch: Partial<SenderFormValues>) => setValues((v) => ({ ...v, ...patch }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const form = e.currentTarget;
    const parsed = parseSenderForm(values);
    if (parsed.errors) {
      setErrors(parsed.errors);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    update.mutate({ id: sender.id, body: parsed.body }, { onSuccess: onSaved });
  };

  return (
    <Modal aria-labelledby={titleId} show onHide={update.isPending ? undefined : onHide} centered>
      <Modal.Header closeButton={!update.isPending}>
        <Modal.Title id={titleId} as="h2" className="h5">
          Edit {sender.name}
        </Modal.Title>
      </Modal.Header>
      <Form noValidate onSubmit={submit}>
        <Modal.Body>
          {update.isError && (
            <Alert variant="danger">
              {errorMessage(update.error, ui.delivery.senderSaveFailed)}
            </Alert>
          )}
          <Form.Group className="mb-3" controlId="sender-rate">
            <Form.Label>Rate per second</Form.Label>
            <Form.Control
              inputMode="numeric"
              value={values.ratePerSecond}
              isInvalid={!!errors.ratePerSecond}
              onChange={(e) => set({ ratePerSecond: e.target.value })}
            />
            <Form.Control.Feedback type="invalid">{errors.ratePerSecond}</Form.Control.Feedback>
          </Form.Group>
          <Form.Group controlId="sender-daily-limit">
            <Form.Label>Daily limit</Form.Label>
            <Form.Control
              inputMode="numeric"
              value={values.dailyLimit}
              placeholder={ui.delivery.unlimited}
              isInvalid={!!errors.dailyLimit}
              onChange={(e) => set({ dailyLimit: e.target.value })}
            />
            <Form.Text muted>{ui.delivery.dailyLimitHint}</Form.Text>
            <Form.Control.Feedback type="invalid">{errors.dailyLimit}</Form.Control.Feedback>
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending && <Spinner size="sm" className="me-1" aria-hidden="true" />}
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
