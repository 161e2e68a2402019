import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Form, Spinner } from 'react-bootstrap';
import { TwoFactorConfirmBodySchema, twoFactorUi as t } from '@herald/contract';
import { firstIssues } from '../../../components/field-errors';
import { TextField } from '../../../components/form-field';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { errorMessage } from '../../../lib/api-client';
import { useConfirmTwoFactor, useStartTwoFactorSetup } from '../../../api/profile/two-factor';
import { RecoveryCodes } from './recovery-codes';

/**
 * Enrolment: a new secret as a QR code and as text, a first code to confirm it, then the
 * recovery codes once. `onEnabled` runs when the codes are confirmed (two-factor is on from
 * there), `onDone` when the user has saved the recovery codes.
 */
export function TwoFactorSetup({
  onEnabled,
  onDone,
  onCancel,
}: {
  onEnabled: () => void;
  onDone: () => void;
  onCancel?: () => void;
}) {
  const start = useStartTwoFactorSetup();
  const confirm = useConfirmTwoFactor();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const { mutate: begin } = start;

  useEffect(() => begin(), [begin]);

  if (confirm.data) return <RecoveryCodes codes={confirm.data.recoveryCodes} onDone={onDone} />;
  if (start.isError)
    return <Alert variant="danger">{errorMessage(start.error, t.setupFailed)}</Alert>;
  if (!start.data) return <LoadingSpinner label="Loading..." />;
  const { qrCode, secret } = start.data;

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = TwoFactorConfirmBodySchema.safeParse({ code });
    if (!parsed.success) {
      setError(firstIssues(parsed.error).code);
      return;
    }
    setError(undefined);
    confirm.mutate(parsed.data.code, {
      onSuccess: onEnabled,
      onError: (err) => setError(errorMessage(err, t.actionFailed)),
    });
  }

  return (
    <div>
      <p className="mb-2">{t.scanStep}</p>
      <div className="text-center mb-3">
        <img src={qrCode} alt={t.qrAlt} width={200} height={200} className="border rounded" />
      </div>
      <p className="mb-1">{t.secretLabel}</p>
      <p className="mb-3">
        <code className="text-break" data-testid="two-factor-secret">
          {secret}
        </code>
      </p>
      <Form noValidate onSubmit={submit}>
        <TextField
          className="mb-3"
          controlId="two-factor-setup-code"
          label={t.confirmStep}
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          error={error}
          onChange={setCode}
        />
        <div className="d-flex gap-2 justify-content-end">
          {onCancel && (
            <Button variant="secondary" onClick={onCancel}>
              {t.cancel}
            </Button>
          )}
          <Button type="submit" disabled={confirm.isPending}>
            {confirm.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            {confirm.isPending ? t.confirming : t.confirm}
          </Button>
        </div>
      </Form>
    </div>
  );
}
