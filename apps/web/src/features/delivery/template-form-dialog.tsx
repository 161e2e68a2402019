import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Form, Modal, Spinner } from 'react-bootstrap';
import { templateVariableCount, ui, type Sender, type SenderTemplate } from '@herald/contract';
import type { FieldErrors } from '../../components/field-errors';
import { TextField } from '../../components/form-field';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';
import { errorMessage } from '../../lib/api-client';
import { useCreateTemplate } from '../../api/delivery/create-template';
import { emptyTemplateValues, parseTemplate, type TemplateFormValues } from './template-form';

const t = ui.templates;

interface TemplateFormDialogProps {
  sender: Sender;
  onHide: () => void;
  onSaved: (template: SenderTemplate) => void;
}

/**
 * Registers one approved template of a WhatsApp sender: its name, language and body. The
 * variables the body numbers are counted as it is typed, with the contract's own counter.
 */
export function TemplateFormDialog({ sender, onHide, onSaved }: TemplateFormDialogProps) {
  const titleId = useId();
  const [values, setValues] = useState<TemplateFormValues>(emptyTemplateValues);
  const [errors, setErrors] = useState<FieldErrors>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const create = useCreateTemplate();
  const saving = create.isPending;
  const set = (patch: Partial<TemplateFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const counted = values.body.trim() ? templateVariableCount(values.body) : undefined;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const parsed = parseTemplate(values);
    if (parsed.errors) {
      setErrors(parsed.errors);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    create.mutate({ senderId: sender.id, body: parsed.body }, { onSuccess: onSaved });
  };

  return (
    <Modal aria-labelledby={titleId} show onHide={saving ? undefined : onHide} centered>
      <Modal.Header closeButton={!saving}>
        <Modal.Title id={titleId} as="h2" className="h5">
          {t.addTitle(sender.name)}
        </Modal.Title>
      </Modal.Header>
      <Form noValidate onSubmit={submit}>
        <Modal.Body>
          {create.error && (
            <Alert variant="danger">{errorMessage(create.error, t.createFailed)}</Alert>
          )}
          <TextField
            controlId="template-name"
            label={t.nameLabel}
            value={values.name}
            hint={t.nameHint}
            error={errors.name}
            autoComplete="off"
            onChange={(name) => set({ name })}
          />
          <TextField
            controlId="template-language"
            label={t.languageLabel}
            value={values.language}
            hint={t.languageHint}
            error={errors.language}
            autoComplete="off"
            onChange={(language) => set({ language })}
          />
          <TextField
            className="mb-1"
            controlId="template-body"
            label={t.bodyLabel}
            rows={4}
            value={values.body}
            hint={t.bodyHint}
            error={errors.body}
            onChange={(body) => set({ body })}
          />
          {counted !== undefined && (
            <div
              className={`small ${counted === null ? 'text-danger' : 'text-muted'}`}
              data-testid="template-variable-count"
              aria-live="polite"
            >
              {t.variablesFound(counted)}
            </div>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving && <Spinner size="sm" className="me-1" aria-hidden="true" />}
            {t.add}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
