import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import {
  DEFAULT_COMPANY_NAME,
  SetPasswordBodySchema,
  SetPasswordCheckBodySchema,
  loadCommonPasswords,
  setPasswordMessages as text,
} from '@herald/contract';
import { firstIssues, type FieldErrors } from '../../components/field-errors';
import { errorMessage } from '../../lib/api-client';
import { checkSetPasswordLink, setPassword } from '../../api/auth/set-password';

/** The link as the server sees it on opening: still open (with its company), or spent. */
type LinkState =
  { kind: 'checking' } | { kind: 'open'; company: string } | { kind: 'spent'; message: string };

/**
 * /set-password#<token>: the page a new user's mailed link opens (docs/product.md, Roles and
 * scope). The token travels after `#`, so it never reaches a server log; the password meets the
 * same policy as everywhere else. On opening, the server says whether the link still works and
 * under which company its user is served, which the page shows; a used or expired link shows the
 * server's message instead of the form, and nothing changes.
 */
export function SetPasswordPage() {
  const token = useLocation().hash.replace(/^#/, '');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [link, setLink] = useState<LinkState>({ kind: 'checking' });

  useEffect(() => {
    let live = true;
    if (!SetPasswordCheckBodySchema.safeParse({ token }).success) {
      setLink({ kind: 'spent', message: text.noToken });
      return;
    }
    checkSetPasswordLink({ token })
      .then((brand) => live && setLink({ kind: 'open', company: brand.companyName }))
      .catch(
        (err: unknown) =>
          live && setLink({ kind: 'spent', message: errorMessage(err, text.noToken) }),
      );
    return () => {
      live = false;
    };
  }, [token]);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    await loadCommonPasswords().catch(() => undefined); // common-password rule
    const parsed = SetPasswordBodySchema.safeParse({ token, newPassword, confirmPassword });
    if (!parsed.success) {
      const issues = firstIssues(parsed.error);
      if (issues.token) setError(text.noToken);
      setFieldErrors(issues);
      return;
    }
    setFieldErrors({});
    setError(null);
    setPending(true);
    try {
      const reply = await setPassword(parsed.data);
      setDone(reply.message);
    } catch (err) {
      setError(errorMessage(err, text.failed));
    } finally {
      setPending(false);
    }
  }

  const field = (
    id: 'newPassword' | 'confirmPassword',
    value: string,
    onChange: (v: string) => void,
  ) => {
    const htmlId = `set-password-${id}`;
    const problem = fieldErrors[id];
    return (
      <div className="mb-3">
        <label htmlFor={htmlId} className="form-label">
          {text[id]}
        </label>
        <input
          id={htmlId}
          type="password"
          className={`form-control${problem ? ' is-invalid' : ''}`}
          autoComplete="new-password"
          required
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={problem ? `${htmlId}-error` : undefined}
        />
        {problem && (
          <div id={`${htmlId}-error`} className="invalid-feedback">
            {problem}
          </div>
        )}
      </div>
    );
  };

  return (
    <main className="min-vh-100 d-flex align-items-center justify-content-center p-3">
      <div className="card shadow-sm w-100" style={{ maxWidth: 400 }}>
        <div className="card-body p-4">
          <h1 className="h3 text-center mb-1 text-break">
            {link.kind === 'open' ? link.company : DEFAULT_COMPANY_NAME}
          </h1>
          <h2 className="h5 text-center mb-1">{text.title}</h2>
          {link.kind === 'checking' && (
            <div className="d-flex justify-content-center p-3">
              <div className="spinner-border text-primary" role="status">
                <span className="visually-hidden">{text.checking}</span>
              </div>
            </div>
          )}
          {link.kind === 'spent' && !done && (
            <>
              <div className="alert alert-danger py-2 mt-3" role="alert">
                {link.message}
              </div>
              <Link to="/login" className="btn btn-primary w-100">
                {text.toLogin}
              </Link>
            </>
          )}
          {link.kind !== 'open' ? null : done ? (
            <>
              <div className="alert alert-success py-2 mt-3" role="status">
                {done}
              </div>
              <Link to="/login" className="btn btn-primary w-100">
                {text.toLogin}
              </Link>
            </>
          ) : (
            <>
              <p className="text-center text-muted mb-4">{text.intro}</p>
              {error && (
                <div className="alert alert-danger py-2" role="alert">
                  {error}
                </div>
              )}
              <form onSubmit={(e) => void onSubmit(e)} noValidate>
                {field('newPassword', newPassword, setNewPassword)}
                {field('confirmPassword', confirmPassword, setConfirmPassword)}
                <button type="submit" className="btn btn-primary w-100" disabled={pending}>
                  {pending && (
                    <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
                  )}
                  {pending ? text.saving : text.submit}
                </button>
              </form>
              <div className="text-center mt-3">
                <Link to="/login">{text.toLogin}</Link>
              </div>
            </>
          )}
        </div>
      </div>
    </main>
  );
}
