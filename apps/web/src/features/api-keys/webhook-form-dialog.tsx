import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Form, Modal, Spinner } from 'react-bootstrap';
import {
  WEBHOOK_EVENT_TYPES,
  ui,
  type CreateWebhookReply,
  type WebhookEndpoint,
} from '@herald/contract';
import type { FieldErrors } from '../../components/field-errors';
import { TextField } from '../../components/form-field';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';
import { errorMessage } from '../../lib/api-client';
import { useCreateWebhook, useUpdateWebhook } from '../../api/webhooks/webhook-mutations';
import {
  checkWebhookForm,
  newWebhookValues,
  toggleEvent,
  webhookFormValues,
  type WebhookFormValues,
} from './webhooks-logic';

const t = ui.webhooks;

interface WebhookFormDialogProps {
  /** null: a new endpoint. */
  endpoint: WebhookEndpoint | null;
  /** Whether the server takes https URLs only (its list says). */
  httpsOnly: boolean;
  onHide: () => void;
  onCreated: (reply: CreateWebhookReply) => void;
  onSaved: (message: string) => void;
}

/** Add an endpoint (URL, events, description) or edit one, checked by the server's schema. */
export function WebhookFormDialog(props: WebhookFormDialogProps) {
  const { endpoint, httpsOnly, onHide } = props;
  const titleId = useId();
  const [values, setValues] = useState<WebhookFormValues>(() =>
    endpoint ? webhookFormValues(endpoint) : newWebhookValues(),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const saving = create.isPending || update.isPending;
  const failed = endpoint ? update.error : create.error;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const checked = checkWebhookForm(values, httpsOnly);
    if ('errors' in checked) {
      setErrors(checked.errors);
      focusFirstInvalid(e.currentTarget);
      return;
    }
    setErrors({});
    if (endpoint) {
      update.mutate(
        { id: endpoint.id, body: checked.body },
        { onSuccess: (reply) => props.onSaved(reply.message) },
      );
    } else {
      create.mutate(checked.body, { onSuccess: props.onCreated });
    }
  };

  const eventsError = errors.events;
  return (
    <Modal aria-labelledby={titleId} show onHide={saving ? undefined : onHide} centered>
      <Modal.Header closeButton={!saving}>
        <Modal.Title id={titleId} as="h2" className="h5">
          {endpoint ? t.editTitle : t.addTitle}
        </Modal.Title>
      </Modal.Header>
      <Form noValidate onSubmit={submit}>
        <Modal.Body>
          {failed && <Alert variant="danger">{errorMessage(failed, t.saveFailed)}</Alert>}
          <TextField
            controlId="webhook-url"
            label={t.urlLabel}
            type="url"
            autoComplete="off"
            value={values.url}
            hint={t.urlHint(httpsOnly)}
            error={errors.url}
            onChange={(url) => setValues((v) => ({ ...v, url }))}
          />
          <fieldset
            className="mb-3"
            aria-describedby={eventsError ? 'webhook-events-error' : undefined}
          >
            <legend className="form-label fs-6 mb-2">{t.eventsLabel}</legend>
            {WEBHOOK_EVENT_TYPES.map((event) => (
              <Form.Check
                key={event}
                id={`webhook-event-${event}`}
                checked={values.events.includes(event)}
                isInvalid={eventsError !== undefined}
                aria-invalid={eventsError !== undefined || undefined}
                onChange={(e) => {
                  // Read now: the updater may run after React has let go of the event.
                  const on = e.currentTarget.checked;
                  setValues((v) => ({ ...v, events: toggleEvent(v.events, event, on) }));
                }}
                label={
                  <>
                    {t.events[event]}{' '}
                    <span className="small text-muted font-monospace">{event}</span>
                  </>
                }
              />
            ))}
            {eventsError && (
              <div id="webhook-events-error" className="invalid-feedback d-block">
                {eventsError}
              </div>
            )}
          </fieldset>
          <TextField
            controlId="webhook-description"
            label={t.descriptionLabel}
            autoComplete="off"
            value={values.description}
            error={errors.description}
            onChange={(description) => setValues((v) => ({ ...v, description }))}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide} disabled={saving}>
            {t.cancel}
          </Button>
          <Button type="submit" disabled={saving}>
            {saving && <Spinner size="sm" className="me-1" aria-hidden="true" />}
            {t.save}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
