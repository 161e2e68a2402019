import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Form, Modal, Spinner } from 'react-bootstrap';
import {
  PROVIDER_FIELDS,
  PROVIDER_KINDS,
  PROVIDER_KIND_LABELS,
  ui,
  type Provider,
  type ProviderKind,
} from '@herald/contract';
import type { FieldErrors } from '../../components/field-errors';
import { SelectField, TextField } from '../../components/form-field';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';
import { errorMessage } from '../../lib/api-client';
import { useCreateProvider } from '../../api/delivery/create-provider';
import { useUpdateProvider } from '../../api/delivery/update-provider';
import {
  FORM_ERROR,
  fieldKey,
  newProviderValues,
  parseNewProvider,
  parseProviderEdit,
  providerFormValues,
  secretHint,
  withKind,
  type ProviderFormValues,
} from './provider-form';

const t = ui.providers;
/** The kinds an Admin adds: the simulator comes with the server. */
const ADDABLE = PROVIDER_KINDS.filter((k) => k !== 'simulator').map((k) => ({
  value: k,
  label: PROVIDER_KIND_LABELS[k],
}));

interface ProviderFormDialogProps {
  /** null: a new provider. */
  provider: Provider | null;
  onHide: () => void;
  onSaved: (provider: Provider) => void;
}

/** Add a provider (its kind, then that kind's fields) or edit one; secrets are never shown. */
export function ProviderFormDialog({ provider, onHide, onSaved }: ProviderFormDialogProps) {
  const titleId = useId();
  const [values, setValues] = useState<ProviderFormValues>(() =>
    provider ? providerFormValues(provider) : newProviderValues(),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const create = useCreateProvider();
  const update = useUpdateProvider();
  const saving = create.isPending || update.isPending;
  const failed = provider ? update.error : create.error;
  const kind = values.kind;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const refuse = (found: FieldErrors) => {
      setErrors(found);
      focusFirstInvalid(form);
    };
    if (provider) {
      const parsed = parseProviderEdit(values, provider);
      if (parsed.errors) return refuse(parsed.errors);
      setErrors({});
      update.mutate({ id: provider.id, body: parsed.body }, { onSuccess: onSaved });
    } else {
      const parsed = parseNewProvider(values);
      if (parsed.errors) return refuse(parsed.errors);
      setErrors({});
      create.mutate(parsed.body, { onSuccess: onSaved });
    }
  };

  const setField = (name: string, value: string) =>
    setValues((v) => ({ ...v, fields: { ...v.fields, [name]: value } }));

  return (
    <Modal aria-labelledby={titleId} show onHide={saving ? undefined : onHide} centered>
      <Modal.Header closeButton={!saving}>
        <Modal.Title id={titleId} as="h2" className="h5">
          {provider ? t.editProviderTitle(provider.name) : t.addProviderTitle}
        </Modal.Title>
      </Modal.Header>
      <Form noValidate onSubmit={submit}>
        <Modal.Body>
          {failed && <Alert variant="danger">{errorMessage(failed, t.providerSaveFailed)}</Alert>}
          {errors[FORM_ERROR] && <Alert variant="danger">{errors[FORM_ERROR]}</Alert>}
          {provider ? (
            <p className="mb-3">
              <span className="text-muted">{t.kindLabel}: </span>
              {PROVIDER_KIND_LABELS[provider.kind]}
            </p>
          ) : (
            <SelectField
              controlId="provider-kind"
              label={t.kindLabel}
              placeholder={t.kindPlaceholder}
              options={ADDABLE}
              value={kind}
              error={errors.kind}
              onChange={(k) => {
                setErrors({});
                setValues((v) => withKind(v, k as ProviderKind | ''));
              }}
            />
          )}
          <TextField
            controlId="provider-name"
            label={t.nameLabel}
            value={values.name}
            error={errors.name}
            autoComplete="off"
            onChange={(name) => setValues((v) => ({ ...v, name }))}
          />
          {kind !== '' &&
            PROVIDER_FIELDS[kind].map((f) => (
              <TextField
                key={`${kind}-${f.name}`}
                controlId={`provider-field-${f.name}`}
                label={f.required ? f.label : t.optional(f.label)}
                type={f.secret ? 'password' : f.url ? 'url' : 'text'}
                autoComplete={f.secret ? 'new-password' : 'off'}
                value={values.fields[f.name] ?? ''}
                hint={secretHint(f, provider)}
                error={errors[fieldKey(f.name)]}
                onChange={(value) => setField(f.name, value)}
              />
            ))}
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
