import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Form, Modal, Spinner } from 'react-bootstrap';
import { PROVIDER_LIMITS, ui, type Provider, type Sender } from '@herald/contract';
import type { FieldErrors } from '../../components/field-errors';
import { SelectField, TextField } from '../../components/form-field';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';
import { errorMessage } from '../../lib/api-client';
import { useTestProvider } from '../../api/delivery/test-provider';
import { parseTestMessage, testMessageValues, type TestMessageValues } from './test-message-form';
import { ProviderAnswer } from './provider-answer';

const t = ui.providers;

interface TestMessageDialogProps {
  provider: Provider;
  /** The provider's own senders. */
  senders: readonly Sender[];
  onHide: () => void;
}

/**
 * One message through one of the provider's senders, to check its settings before a campaign:
 * shows what the provider answered, as it answered.
 */
export function TestMessageDialog({ provider, senders, onHide }: TestMessageDialogProps) {
  const titleId = useId();
  const [values, setValues] = useState<TestMessageValues>(() => testMessageValues(senders));
  const [errors, setErrors] = useState<FieldErrors>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const send = useTestProvider();
  const set = (patch: Partial<TestMessageValues>) => setValues((v) => ({ ...v, ...patch }));

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const parsed = parseTestMessage(values);
    if (parsed.errors) {
      setErrors(parsed.errors);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    send.mutate({ id: provider.id, body: parsed.body });
  };

  return (
    <Modal aria-labelledby={titleId} show onHide={send.isPending ? undefined : onHide} centered>
      <Modal.Header closeButton={!send.isPending}>
        <Modal.Title id={titleId} as="h2" className="h5">
          {t.testTitle(provider.name)}
        </Modal.Title>
      </Modal.Header>
      <Form noValidate onSubmit={submit}>
        <Modal.Body>
          {send.isError && <Alert variant="danger">{errorMessage(send.error, t.testFailed)}</Alert>}
          {senders.length === 0 && <Alert variant="warning">{t.testNoSenders}</Alert>}
          <SelectField
            controlId="test-sender"
            label={t.testSenderLabel}
            placeholder={senders.length === 0 ? t.testSenderPlaceholder : undefined}
            options={senders.map((s) => ({ value: s.id, label: s.name }))}
            value={values.senderId}
            error={errors.senderId}
            onChange={(senderId) => set({ senderId })}
          />
          <TextField
            controlId="test-to"
            label={t.testToLabel}
            type="tel"
            inputMode="numeric"
            autoComplete="off"
            hint={t.testToHint}
            value={values.to}
            error={errors.to}
            onChange={(to) => set({ to })}
          />
          <TextField
            controlId="test-message"
            label={t.testMessageLabel}
            rows={3}
            value={values.message}
            hint={`${values.message.length} / ${PROVIDER_LIMITS.testMessageMax}`}
            error={errors.message}
            className="mb-0"
            onChange={(message) => set({ message })}
          />
          {send.data && <ProviderAnswer result={send.data} />}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide} disabled={send.isPending}>
            Close
          </Button>
          <Button type="submit" disabled={send.isPending || senders.length === 0}>
            {send.isPending && <Spinner size="sm" className="me-1" aria-hidden="true" />}
            {t.testSend}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
