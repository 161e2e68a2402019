import { useState, type FormEvent } from 'react';
import { Alert, Button, Form, Modal, Spinner } from 'react-bootstrap';
import {
  RecoveryCodesBodySchema,
  TwoFactorDisableBodySchema,
  twoFactorUi as t,
} from '@herald/contract';
import { firstIssues, type FieldErrors } from '../../../components/field-errors';
import { TextField } from '../../../components/form-field';
import { errorMessage } from '../../../lib/api-client';
import { updateSessionUser } from '../../../lib/auth-store';
import { useDisableTwoFactor, useRegenerateRecoveryCodes } from '../../../api/profile/two-factor';
import { RecoveryCodes } from './recovery-codes';

/** Turn off two-factor sign-in: the password and a code. */
export function DisableTwoFactorDialog({ onHide }: { onHide: () => void }) {
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string>();

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = TwoFactorDisableBodySchema.safeParse({ password, code });
    if (!parsed.success) {
      setErrors(firstIssues(parsed.error));
      return;
    }
    setErrors({});
    setFailure(undefined);
    disable.mutate(parsed.data, {
      onSuccess: () => {
        updateSessionUser({ twoFactorEnabled: false });
        onHide();
      },
      onError: (err) => setFailure(errorMessage(err, t.actionFailed)),
    });
  }

  return (
    <Modal show onHide={onHide} aria-labelledby="disable-two-factor-title">
      <Modal.Header closeButton>
        <Modal.Title id="disable-two-factor-title" as="h2" className="h5">
          {t.disableTitle}
        </Modal.Title>
      </Modal.Header>
      <Form noValidate onSubmit={submit}>
        <Modal.Body>
          <p>{t.disableIntro}</p>
          {failure && <Alert variant="danger">{failure}</Alert>}
          <TextField
            controlId="disable-two-factor-password"
            label={t.passwordLabel}
            type="password"
            autoComplete="current-password"
            value={password}
            error={errors.password}
            onChange={setPassword}
          />
          <TextField
            controlId="disable-two-factor-code"
            label={t.codeLabel}
            autoComplete="one-time-code"
            value={code}
            error={errors.code}
            onChange={setCode}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide}>
            {t.cancel}
          </Button>
          <Button type="submit" variant="danger" disabled={disable.isPending}>
            {disable.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            {t.disableConfirm}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** New recovery codes for an authenticator code; shows them once. */
export function RegenerateCodesDialog({ onHide }: { onHide: () => void }) {
  const regenerate = useRegenerateRecoveryCodes();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = RecoveryCodesBodySchema.safeParse({ code });
    if (!parsed.success) {
      setError(firstIssues(parsed.error).code);
      return;
    }
    setError(undefined);
    regenerate.mutate(parsed.data.code, {
      onError: (err) => setError(errorMessage(err, t.actionFailed)),
    });
  }

  return (
    <Modal show onHide={onHide} aria-labelledby="regenerate-codes-title">
      <Modal.Header closeButton>
        <Modal.Title id="regenerate-codes-title" as="h2" className="h5">
          {t.regenerateTitle}
        </Modal.Title>
      </Modal.Header>
      {regenerate.data ? (
        <Modal.Body>
          <RecoveryCodes codes={regenerate.data.recoveryCodes} onDone={onHide} />
        </Modal.Body>
      ) : (
        <Form noValidate onSubmit={submit}>
          <Modal.Body>
            <p>{t.regenerateIntro}</p>
            <TextField
              controlId="regenerate-codes-code"
              label={t.codeLabel}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              error={error}
              onChange={setCode}
            />
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={onHide}>
              {t.cancel}
            </Button>
            <Button type="submit" disabled={regenerate.isPending}>
              {regenerate.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              {t.regenerateConfirm}
            </Button>
          </Modal.Footer>
        </Form>
      )}
    </Modal>
  );
}
