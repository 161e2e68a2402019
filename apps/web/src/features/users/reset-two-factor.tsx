import { useState } from 'react';
import { Alert, Button } from 'react-bootstrap';
import { twoFactorUi as t, type User } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useResetTwoFactor } from '../../api/users/two-factor-admin';

type Notice = { variant: 'success' | 'danger'; text: string };

/**
 * Admin-only: whether the user has two-factor sign-in, and a reset after a confirmation for one
 * who lost the phone and the recovery codes (their sessions and API keys end).
 */
export function ResetTwoFactor({ user }: { user: User }) {
  const [enabled, setEnabled] = useState(user.twoFactorEnabled);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const reset = useResetTwoFactor();

  function confirm() {
    reset.mutate(user.id, {
      onSuccess: ({ message }) => {
        setEnabled(false);
        setNotice({ variant: 'success', text: message });
      },
      onError: (err) => setNotice({ variant: 'danger', text: errorMessage(err, t.resetFailed) }),
      onSettled: () => setConfirming(false),
    });
  }

  return (
    <section className="border-top pt-3 mt-2" aria-labelledby="reset-two-factor-title">
      <h3 id="reset-two-factor-title" className="h6">
        {t.title}
      </h3>
      {notice && <Alert variant={notice.variant}>{notice.text}</Alert>}
      <div className="d-flex flex-wrap gap-2 align-items-center justify-content-between">
        <span>{t.userStatus(enabled)}</span>
        {enabled && (
          <Button variant="warning" onClick={() => setConfirming(true)}>
            {t.resetButton}
          </Button>
        )}
      </div>
      {confirming && (
        <ConfirmDialog
          show
          title={t.resetButton}
          variant="warning"
          busy={reset.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          {t.confirmReset(user.email)}
        </ConfirmDialog>
      )}
    </section>
  );
}
