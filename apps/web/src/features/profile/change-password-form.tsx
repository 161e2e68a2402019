import { useState, type FormEvent } from 'react';
import { Alert } from 'react-bootstrap';
import { ui, type ChangePasswordBody } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import type { FieldErrors } from '../../components/field-errors';
import { TextField } from '../../components/form-field';
import { useChangePassword } from '../../api/profile/change-password';
import { EMPTY_CHANGE_PASSWORD, validateChangePassword } from './change-password-logic';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';

const FIELDS: { key: keyof ChangePasswordBody; label: string; autoComplete: string }[] = [
  { key: 'currentPassword', label: 'Current Password', autoComplete: 'current-password' },
  { key: 'newPassword', label: 'New Password', autoComplete: 'new-password' },
  { key: 'confirmPassword', label: 'Confirm New Password', autoComplete: 'new-password' },
];

/**
 * Change Password's state and submit, shared by the profile's dialog and the screen a
 * user whose password an Admin reset must pass first.
 */
export function useChangePasswordForm() {
  const [values, setValues] = useState<ChangePasswordBody>(EMPTY_CHANGE_PASSWORD);
  const [errors, setErrors] = useState<FieldErrors>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const [checking, setChecking] = useState(false);
  const change = useChangePassword();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const form = e.currentTarget;
    if (checking || change.isPending) return;
    change.reset();
    setChecking(true);
    const result = await validateChangePassword(values);
    setChecking(false);
    if ('errors' in result) {
      setErrors(result.errors);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    change.mutate(result.data, { onSuccess: () => setValues(EMPTY_CHANGE_PASSWORD) });
  }

  const set = (key: keyof ChangePasswordBody, value: string) =>
    setValues((prev) => ({ ...prev, [key]: value }));
  return { values, errors, change, pending: checking || change.isPending, submit, set };
}

type Form = ReturnType<typeof useChangePasswordForm>;

/** The outcome alert and the three fields, with the product's labels. */
export function ChangePasswordFields({ form, idPrefix }: { form: Form; idPrefix: string }) {
  const { change } = form;
  return (
    <>
      {change.isSuccess && <Alert variant="success">{ui.profile.passwordChanged}</Alert>}
      {change.isError && (
        <Alert variant="danger">
          {errorMessage(change.error, ui.profile.changePasswordFailed)}
        </Alert>
      )}
      {FIELDS.map((f) => (
        <TextField
          key={f.key}
          controlId={`${idPrefix}-${f.key}`}
          label={f.label}
          type="password"
          autoComplete={f.autoComplete}
          value={form.values[f.key]}
          error={form.errors[f.key]}
          onChange={(v) => form.set(f.key, v)}
        />
      ))}
    </>
  );
}
