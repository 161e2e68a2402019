import { useCallback, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { DEFAULT_COMPANY_NAME, loginMessages, type LoginReply } from '@herald/contract';
import { firstIssues, type FieldErrors } from '../../components/field-errors';
import { errorMessage } from '../../lib/api-client';
import { setSession, useSession } from '../../lib/auth-store';
import { login } from '../../api/auth/login';
import { lazyNamed } from '../../lib/lazy-named';
import { PlainSpinner } from '../../components/plain-spinner';

// The dialog pulls in react-bootstrap; it loads only when asked for, keeping /login small.
const ForgotPasswordDialog = lazyNamed(
  () => import('./forgot-password-dialog'),
  'ForgotPasswordDialog',
);
// The code step and its texts are needed only with two-factor sign-in on: fetched once the
// form is touched (with the schema), so it is there before the password's answer.
const TwoFactorStep = lazyNamed(
  () => import('./two-factor-step'),
  'TwoFactorStep',
  <PlainSpinner className="p-3" />,
);

const loadSchema = () => import('./login-schema');
const loadOnFocus = () => {
  void loadSchema();
  void TwoFactorStep.preload().catch(() => undefined);
};

/**
 * /login: email and password; on success the session is stored and / opens. With two-factor
 * sign-in on, the password answers a challenge and the code step follows.
 */
export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [challenge, setChallenge] = useState<string | null>(null);
  // Each opening mounts a fresh dialog (new key); it stays mounted while it animates out.
  const [dialog, setDialog] = useState({ key: 0, show: false });
  const closeDialog = useCallback(() => setDialog((d) => ({ ...d, show: false })), []);

  if (session) return <Navigate to="/" replace />;

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    const { LoginBodySchema } = await loadSchema();
    const parsed = LoginBodySchema.safeParse({ email, password });
    if (!parsed.success) {
      setFieldErrors(firstIssues(parsed.error));
      return;
    }
    setFieldErrors({});
    setError(null);
    setPending(true);
    try {
      const reply = await login(parsed.data);
      if ('challenge' in reply) {
        setPassword('');
        setChallenge(reply.challenge);
        setPending(false);
        return;
      }
      signedIn(reply);
    } catch (err) {
      setError(errorMessage(err, loginMessages.failed));
      setPending(false);
    }
  }

  function signedIn(reply: LoginReply) {
    setSession(reply.token, reply.user);
    navigate('/', { replace: true });
  }

  function restart(message?: string) {
    setChallenge(null);
    setError(message ?? null);
  }

  return (
    <main className="min-vh-100 d-flex align-items-center justify-content-center p-3">
      <div className="card shadow-sm w-100" style={{ maxWidth: 400 }}>
        <div className="card-body p-4">
          <h1 className="h3 text-center mb-1">{DEFAULT_COMPANY_NAME}</h1>
          <p className="text-center text-muted mb-4">Sign in to your account</p>
          {error && (
            <div className="alert alert-danger py-2" role="alert">
              {error}
            </div>
          )}
          {challenge ? (
            <TwoFactorStep challenge={challenge} onSignedIn={signedIn} onRestart={restart} />
          ) : (
            <>
              <form onSubmit={onSubmit} onFocus={loadOnFocus}>
                <div className="mb-3">
                  <label htmlFor="login-email" className="form-label">
                    Email
                  </label>
                  <input
                    id="login-email"
                    type="email"
                    className={`form-control${fieldErrors.email ? ' is-invalid' : ''}`}
                    autoComplete="username"
                    required
                    value={email}
                    onChange={(e) => setEmail(e.target.value)}
                    aria-invalid={fieldErrors.email ? true : undefined}
                    aria-describedby={fieldErrors.email ? 'login-email-error' : undefined}
                  />
                  {fieldErrors.email && (
                    <div id="login-email-error" className="invalid-feedback">
                      {fieldErrors.email}
                    </div>
                  )}
                </div>
                <div className="mb-3">
                  <label htmlFor="login-password" className="form-label">
                    Password
                  </label>
                  <input
                    id="login-password"
                    type="password"
                    className={`form-control${fieldErrors.password ? ' is-invalid' : ''}`}
                    autoComplete="current-password"
                    required
                    value={password}
                    onChange={(e) => setPassword(e.target.value)}
                    aria-invalid={fieldErrors.password ? true : undefined}
                    aria-describedby={fieldErrors.password ? 'login-password-error' : undefined}
                  />
                  {fieldErrors.password && (
                    <div id="login-password-error" className="invalid-feedback">
                      {fieldErrors.password}
                    </div>
                  )}
                </div>
                <button type="submit" className="btn btn-primary w-100" disabled={pending}>
                  {pending && (
                    <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
                  )}
                  Login
                </button>
              </form>
              <div className="text-center mt-3">
                <button
                  type="button"
                  className="btn btn-link p-0"
                  onMouseEnter={() => void ForgotPasswordDialog.preload()}
                  onFocus={() => void ForgotPasswordDialog.preload()}
                  onClick={() => setDialog((d) => ({ key: d.key + 1, show: true }))}
                >
                  Forgot Password?
                </button>
              </div>
            </>
          )}
        </div>
      </div>
      {dialog.key > 0 && (
        <ForgotPasswordDialog
          key={dialog.key}
          show={dialog.show}
          initialEmail={email}
          onClose={closeDialog}
        />
      )}
    </main>
  );
}
