import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Form, Modal, Spinner } from 'react-bootstrap';
import {
  senderAddressRequired,
  PROVIDER_KIND_LABELS,
  SENDER_ADDRESS_LABELS,
  ui,
  type Provider,
  type Sender,
} from '@herald/contract';
import type { FieldErrors } from '../../components/field-errors';
import { SelectField, TextField } from '../../components/form-field';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';
import { errorMessage } from '../../lib/api-client';
import { useCreateSender } from '../../api/delivery/create-sender';
import { useUpdateSender } from '../../api/delivery/update-sender';
import {
  emptySenderValues,
  parseNewSender,
  parseSenderEdit,
  senderFormValues,
  type SenderFormValues,
} from './sender-form';

const t = ui.providers;

interface SenderFormDialogProps {
  /** null: a new sender. */
  sender: Sender | null;
  providers: readonly Provider[];
  onHide: () => void;
  onSaved: (sender: Sender) => void;
}

/** Add a sender to a provider, or edit one's name, address, rate per second and daily limit. */
export function SenderFormDialog({ sender, providers, onHide, onSaved }: SenderFormDialogProps) {
  const titleId = useId();
  const [values, setValues] = useState<SenderFormValues>(() =>
    sender ? senderFormValues(sender) : emptySenderValues,
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const create = useCreateSender();
  const update = useUpdateSender();
  const saving = create.isPending || update.isPending;
  const failed = sender ? update.error : create.error;
  const set = (patch: Partial<SenderFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const kind = sender?.providerKind ?? providers.find((p) => p.id === values.providerId)?.kind;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const refuse = (found: FieldErrors) => {
      setErrors(found);
      focusFirstInvalid(form);
    };
    if (sender) {
      const parsed = parseSenderEdit(values, sender.providerKind);
      if (parsed.errors) return refuse(parsed.errors);
      setErrors({});
      update.mutate({ id: sender.id, body: parsed.body }, { onSuccess: onSaved });
    } else {
      const parsed = parseNewSender(values, kind ?? null);
      if (parsed.errors) return refuse(parsed.errors);
      setErrors({});
      create.mutate(parsed.body, { onSuccess: onSaved });
    }
  };

  return (
    <Modal aria-labelledby={titleId} show onHide={saving ? undefined : onHide} centered>
      <Modal.Header closeButton={!saving}>
        <Modal.Title id={titleId} as="h2" className="h5">
          {sender ? t.editSenderTitle(sender.name) : t.addSenderTitle}
        </Modal.Title>
      </Modal.Header>
      <Form noValidate onSubmit={submit}>
        <Modal.Body>
          {failed && (
            <Alert variant="danger">{errorMessage(failed, ui.delivery.senderSaveFailed)}</Alert>
          )}
          {sender ? (
            <p className="mb-3">
              <span className="text-muted">{t.providerLabel}: </span>
              {sender.provider} ({PROVIDER_KIND_LABELS[sender.providerKind]})
            </p>
          ) : (
            <SelectField
              controlId="sender-provider"
              label={t.providerLabel}
              placeholder={t.providerPlaceholder}
              options={providers.map((p) => ({
                value: p.id,
                label: `${p.name} (${PROVIDER_KIND_LABELS[p.kind]})`,
              }))}
              value={values.providerId}
              error={errors.providerId}
              onChange={(providerId) => set({ providerId })}
            />
          )}
          <TextField
            controlId="sender-name"
            label={t.senderNameLabel}
            value={values.name}
            error={errors.name}
            autoComplete="off"
            onChange={(name) => set({ name })}
          />
          {kind && (
            <TextField
              controlId="sender-address"
              label={
                senderAddressRequired(kind)
                  ? SENDER_ADDRESS_LABELS[kind]
                  : t.optional(SENDER_ADDRESS_LABELS[kind])
              }
              value={values.address}
              error={errors.address}
              autoComplete="off"
              onChange={(address) => set({ address })}
            />
          )}
          <TextField
            controlId="sender-rate"
            label={t.columns.rate}
            inputMode="numeric"
            value={values.ratePerSecond}
            error={errors.ratePerSecond}
            onChange={(ratePerSecond) => set({ ratePerSecond })}
          />
          <TextField
            className="mb-0"
            controlId="sender-daily-limit"
            label={t.columns.dailyLimit}
            inputMode="numeric"
            value={values.dailyLimit}
            placeholder={ui.delivery.unlimited}
            hint={ui.delivery.dailyLimitHint}
            error={errors.dailyLimit}
            onChange={(dailyLimit) => set({ dailyLimit })}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving && <Spinner size="sm" className="me-1" aria-hidden="true" />}
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
