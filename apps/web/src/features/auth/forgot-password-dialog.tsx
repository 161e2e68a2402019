import { useEffect, useState, type FormEvent } from 'react';
import Modal from 'react-bootstrap/Modal';
import {
  ForgotPasswordBodySchema,
  loadCommonPasswords,
  RESET_DIALOG_CLOSE_MS,
  ResetPasswordBodySchema,
  ui,
} from '@herald/contract';
import { firstIssues, type FieldErrors } from '../../components/field-errors';
import { TextField } from '../../components/form-field';
import { errorMessage } from '../../lib/api-client';
import { forgotPassword } from '../../api/auth/forgot-password';
import { resetPassword } from '../../api/auth/reset-password';

type Step = 'email' | 'reset' | 'done';
interface Notice {
  variant: 'success' | 'danger' | 'info';
  text: string;
}

interface Props {
  show: boolean;
  initialEmail: string;
  onClose: () => void;
}

/**
 * Forgot Password: step 1 sends an OTP to the email, step 2 sets a new password
 * with it; after success the dialog closes by itself RESET_DIALOG_CLOSE_MS later.
 */
export function ForgotPasswordDialog({ show, initialEmail, onClose }: Props) {
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState(initialEmail);
  const [otp, setOtp] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (step !== 'done') return;
    const timer = setTimeout(onClose, RESET_DIALOG_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [step, onClose]);

  async function sendOtp() {
    const parsed = ForgotPasswordBodySchema.safeParse({ email });
    if (!parsed.success) return setFieldErrors(firstIssues(parsed.error));
    setFieldErrors({});
    setNotice(null);
    setPending(true);
    try {
      const reply = await forgotPassword(parsed.data);
      setEmail(parsed.data.email);
      setNotice({ variant: 'info', text: reply.message });
      setStep('reset');
    } catch {
      setNotice({ variant: 'danger', text: ui.login.sendOtpFailed });
    } finally {
      setPending(false);
    }
  }

  async function reset() {
    // The common-password list loads only now (its own chunk); unloaded, the server still checks.
    await loadCommonPasswords().catch(() => undefined);
    const parsed = ResetPasswordBodySchema.safeParse({ email, otp, newPassword });
    if (!parsed.success) return setFieldErrors(firstIssues(parsed.error));
    setFieldErrors({});
    setNotice(null);
    setPending(true);
    try {
      const reply = await resetPassword(parsed.data);
      setNotice({ variant: 'success', text: reply.message + ui.login.resetSuccessSuffix });
      setStep('done');
    } catch (err) {
      setNotice({ variant: 'danger', text: errorMessage(err, ui.login.resetFailed) });
    } finally {
      setPending(false);
    }
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    void (step === 'email' ? sendOtp() : reset());
  }

  return (
    <Modal show={show} onHide={onClose} centered aria-labelledby="forgot-password-title">
      <Modal.Header closeButton>
        <Modal.Title id="forgot-password-title" as="h2" className="h5">
          Reset Password
        </Modal.Title>
      </Modal.Header>
      <form onSubmit={onSubmit} noValidate>
        <Modal.Body>
          {notice && (
            <div className={`alert alert-${notice.variant} py-2`} role="alert">
              {notice.text}
            </div>
          )}
          {step === 'email' && (
            <TextField
              controlId="forgot-email"
              label="Email"
              type="email"
              autoComplete="username"
              value={email}
              onChange={setEmail}
              error={fieldErrors.email}
            />
          )}
          {step === 'reset' && (
            <>
              <p className="small text-muted">
                Enter the OTP sent to <strong>{email}</strong> and choose a new password.
              </p>
              <TextField
                controlId="forgot-otp"
                label="OTP"
                autoComplete="one-time-code"
                value={otp}
                onChange={setOtp}
                error={fieldErrors.otp}
              />
              <TextField
                controlId="forgot-new-password"
                label="New Password"
                type="password"
                autoComplete="new-password"
                value={newPassword}
                onChange={setNewPassword}
                error={fieldErrors.newPassword}
              />
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Close
          </button>
          {step !== 'done' && (
            <button type="submit" className="btn btn-primary" disabled={pending}>
              {pending && (
                <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
              )}
              {step === 'email' ? 'Send OTP' : 'Reset Password'}
            </button>
          )}
        </Modal.Footer>
      </form>
    </Modal>
  );
}
