import { useState, type FormEvent } from 'react';
import { Alert, Button, Form, Modal, Spinner } from 'react-bootstrap';
import { ChangePasswordBodySchema, ui, type ChangePasswordBody } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { firstIssues, type FieldErrors } from '../../components/field-errors';
import { TextField } from '../../components/form-field';
import { useChangePassword } from '../../api/profile/change-password';

const EMPTY: ChangePasswordBody = { currentPassword: '', newPassword: '', confirmPassword: '' };

const FIELDS: { key: keyof ChangePasswordBody; label: string; autoComplete: string }[] = [
  { key: 'currentPassword', label: 'Current Password', autoComplete: 'current-password' },
  { key: 'newPassword', label: 'New Password', autoComplete: 'new-password' },
  { key: 'confirmPassword', label: 'Confirm New Password', autoComplete: 'new-password' },
];

/** Change Password (spec 5): all three required, new and confirm must match. */
export function ChangePasswordDialog({ onHide }: { onHide: () => void }) {
  const [values, setValues] = useState<ChangePasswordBody>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useChangePassword();

  function submit(e: FormEvent) {
    e.preventDefault();
    change.reset();
    const parsed = ChangePasswordBodySchema.safeParse(values);
    if (!parsed.success) {
      setErrors(firstIssues(parsed.error));
      return;
    }
    setErrors({});
    change.mutate(parsed.data, { onSuccess: () => setValues(EMPTY) });
  }

  return (
    <Modal show onHide={onHide} aria-labelledby="change-password-title">
      <Modal.Header closeButton>
        <Modal.Title id="change-password-title" as="h2" className="h5">
          Change Password
        </Modal.Title>
      </Modal.Header>
      <Form noValidate onSubmit={submit}>
        <Modal.Body>
          {change.isSuccess && <Alert variant="success">{ui.profile.passwordChanged}</Alert>}
          {change.isError && (
            <Alert variant="danger">
              {errorMessage(change.error, ui.profile.changePasswordFailed)}
            </Alert>
          )}
          {FIELDS.map((f) => (
            <TextField
              key={f.key}
              controlId={`change-password-${f.key}`}
              label={f.label}
              type="password"
              autoComplete={f.autoComplete}
              value={values[f.key]}
              error={errors[f.key]}
              onChange={(v) => setValues((prev) => ({ ...prev, [f.key]: v }))}
            />
          ))}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide}>
            Close
          </Button>
          <Button type="submit" disabled={change.isPending}>
            {change.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Change Password
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
