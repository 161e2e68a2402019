import { useState, type FormEvent } from 'react';
import { Button, Form, InputGroup, Spinner } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { useSaveWebhookSettings } from '../../api/webhooks/webhook-mutations';
import { checkThreshold } from './webhooks-logic';
import './webhooks.css';

const t = ui.webhooks;

/** The low-balance threshold behind `credits.low_balance` events: whole credits, or empty. */
export function WebhookThresholdForm({ saved }: { saved: number | null }) {
  const [typed, setTyped] = useState(saved === null ? '' : String(saved));
  const [error, setError] = useState<string | undefined>();
  const [answer, setAnswer] = useState<{ text: string; failed: boolean } | null>(null);
  const save = useSaveWebhookSettings();

  function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkThreshold(typed);
    if ('error' in checked) {
      setError(checked.error);
      setAnswer(null);
      return;
    }
    setError(undefined);
    save.mutate(
      { lowBalanceThreshold: checked.value },
      {
        onSuccess: (reply) => setAnswer({ text: reply.message, failed: false }),
        onError: (err) => setAnswer({ text: errorMessage(err, t.thresholdFailed), failed: true }),
      },
    );
  }

  const describedBy = ['webhook-threshold-hint', error && 'webhook-threshold-error']
    .filter(Boolean)
    .join(' ');
  return (
    <Form noValidate onSubmit={submit}>
      <Form.Group controlId="webhook-threshold" className="mb-2">
        <Form.Label>{t.thresholdLabel}</Form.Label>
        <InputGroup hasValidation className="webhook-threshold">
          <Form.Control
            value={typed}
            inputMode="numeric"
            autoComplete="off"
            isInvalid={error !== undefined}
            aria-invalid={error !== undefined || undefined}
            aria-describedby={describedBy}
            onChange={(e) => setTyped(e.target.value)}
          />
          <Button type="submit" variant="outline-primary" disabled={save.isPending}>
            {save.isPending && <Spinner size="sm" className="me-1" aria-hidden="true" />}
            {t.thresholdSave}
          </Button>
          {error && (
            <div id="webhook-threshold-error" className="invalid-feedback">
              {error}
            </div>
          )}
        </InputGroup>
        <Form.Text id="webhook-threshold-hint" muted>
          {t.thresholdHint}
        </Form.Text>
      </Form.Group>
      <div role="status" className={answer?.failed ? 'small text-danger' : 'small text-success'}>
        {answer?.text ?? ''}
      </div>
    </Form>
  );
}
