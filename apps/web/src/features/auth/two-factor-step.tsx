import { useState, type FormEvent } from 'react';
import { normalizeTwoFactorCode, twoFactorMessages as m, type LoginReply } from '@herald/contract';
import { ApiError, errorMessage } from '../../lib/api-client';
import { loginWithCode } from '../../api/auth/login';

/**
 * The login's second step when two-factor sign-in is on: a code from the authenticator app, or
 * a recovery code, traded with the challenge for the session. A challenge that expired (401)
 * sends the visitor back to the password with its message.
 */
export function TwoFactorStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: string;
  onSignedIn: (reply: LoginReply) => void;
  onRestart: (message?: string) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    if (!normalizeTwoFactorCode(code)) {
      setError(m.codeRequired);
      return;
    }
    setError(null);
    setPending(true);
    try {
      onSignedIn(await loginWithCode({ challenge, code }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return onRestart(err.serverMessage);
      setError(errorMessage(err, m.codeWrong));
      setPending(false);
    }
  }

  return (
    <>
      <h2 className="h5">{m.stepTitle}</h2>
      <p className="text-muted">{m.stepIntro}</p>
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <div className="mb-3">
          <label htmlFor="login-code" className="form-label">
            {m.codeLabel}
          </label>
          <input
            id="login-code"
            type="text"
            className={`form-control${error ? ' is-invalid' : ''}`}
            autoComplete="one-time-code"
            autoFocus
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'login-code-error' : undefined}
          />
          {error && (
            <div id="login-code-error" className="invalid-feedback" role="alert">
              {error}
            </div>
          )}
        </div>
        <button type="submit" className="btn btn-primary w-100" disabled={pending}>
          {pending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
          {pending ? m.verifying : m.verify}
        </button>
      </form>
      <div className="text-center mt-3">
        <button type="button" className="btn btn-link p-0" onClick={() => onRestart()}>
          {m.back}
        </button>
      </div>
    </>
  );
}
