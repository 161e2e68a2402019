import { useState, type FormEvent } from 'react';
import { Alert, Button, Form } from 'react-bootstrap';
import { AdminResetPasswordBodySchema, loadCommonPasswords, ui, type User } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { firstIssues } from '../../components/field-errors';
import { TextField } from '../../components/form-field';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useAdminResetPassword } from '../../api/users/admin-reset-password';

type Notice = { variant: 'success' | 'danger'; text: string };

/** Admin-only: set a new password for the user after a confirmation. */
export function AdminResetPassword({ user }: { user: User }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const reset = useAdminResetPassword();

  async function ask(e: FormEvent) {
    e.preventDefault();
    setNotice(null);
    if (password) await loadCommonPasswords().catch(() => undefined); // common-password rule
    const parsed = AdminResetPasswordBodySchema.safeParse({ newPassword: password });
    if (!parsed.success) {
      // Empty gets the screen's own wording; otherwise the password policy's message.
      setError(password ? firstIssues(parsed.error).newPassword : ui.users.enterNewPassword);
      return;
    }
    setError(undefined);
    setConfirming(true);
  }

  function confirm() {
    reset.mutate(
      { id: user.id, newPassword: password },
      {
        onSuccess: () => {
          setPassword('');
          setNotice({ variant: 'success', text: ui.users.resetDone });
        },
        onError: (err) =>
          setNotice({ variant: 'danger', text: errorMessage(err, ui.users.resetFailed) }),
        onSettled: () => setConfirming(false),
      },
    );
  }

  return (
    <section className="border-top pt-3 mt-2" aria-labelledby="reset-password-title">
      <h3 id="reset-password-title" className="h6">
        Reset Password
      </h3>
      {notice && <Alert variant={notice.variant}>{notice.text}</Alert>}
      <Form noValidate onSubmit={(e) => void ask(e)} className="d-flex gap-2 align-items-start">
        <TextField
          className="flex-grow-1"
          controlId="edit-user-new-password"
          label="New Password"
          type="password"
          autoComplete="new-password"
          value={password}
          error={error}
          onChange={setPassword}
        />
        <Button type="submit" variant="warning" className="mt-4 text-nowrap">
          Reset Password
        </Button>
      </Form>
      {/* Unmounted at once, so Escape right after confirming reaches the edit dialog. */}
      {confirming && (
        <ConfirmDialog
          show
          title="Reset Password"
          variant="warning"
          busy={reset.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          {ui.users.confirmReset(user.email)}
        </ConfirmDialog>
      )}
    </section>
  );
}
