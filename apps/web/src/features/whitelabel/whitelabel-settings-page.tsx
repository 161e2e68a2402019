import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Card, Form, Spinner } from 'react-bootstrap';
import { LOGO_MIME_TYPES, ui, WhitelabelSettingsBodySchema } from '@herald/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/form-field';
import { LoadingSpinner } from '../../components/loading-spinner';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/auth-store';
import { useMyBranding } from '../../api/branding/get-my-branding';
import {
  useSaveWhitelabelSettings,
  useWhitelabelSettings,
} from '../../api/branding/whitelabel-settings';
import { logoProblem } from './logo-check';
import { LogoPreview } from './logo-preview';
import { QuietHoursCard } from './quiet-hours-card';
import './whitelabel.css';

const text = ui.whitelabel;

interface Outcome {
  ok: boolean;
  text: string;
  detail?: string | undefined;
}

/**
 * Whitelabel Settings (/whitelabel-settings, Admin, Reseller and Sub-Reseller): company name,
 * logo upload (png or jpeg, 200x50 recommended) and a preview before saving; Reset clears both.
 * The Admin's branding is the platform default of everyone without a nearer one
 * (docs/product.md, Branding). Saving refreshes the caller's own layout at once; its users see
 * the change on their next page load. Below it, the account's quiet hours (quiet-hours-card.tsx).
 */
export function WhitelabelSettingsPage() {
  const settings = useWhitelabelSettings();
  const shown = useMyBranding();
  const isAdmin = useSession()?.user.role === 'Admin';
  const save = useSaveWhitelabelSettings();
  const [confirmReset, setConfirmReset] = useState(false);
  const [companyName, setCompanyName] = useState('');
  const [logo, setLogo] = useState<File | null>(null);
  const [removeLogo, setRemoveLogo] = useState(false);
  const [errors, setErrors] = useState<{ companyName?: string; companyLogo?: string }>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // A new key empties the file input after a save.
  const [fileKey, setFileKey] = useState(0);

  const loaded = settings.data;
  useEffect(() => {
    if (loaded) setCompanyName(loaded.companyName ?? '');
  }, [loaded]);

  if (settings.isPending) return <LoadingSpinner />;
  if (settings.isError || !loaded) {
    return (
      <div>
        <h1 className="h3 mb-3">{text.title}</h1>
        <Alert variant="danger">{text.loadFailed}</Alert>
      </div>
    );
  }

  async function chooseLogo(file: File | null) {
    setLogo(file);
    setErrors((e) => ({ ...e, companyLogo: undefined }));
    if (file) {
      const problem = await logoProblem(file);
      if (problem) setErrors((e) => ({ ...e, companyLogo: problem }));
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (save.isPending) return;
    setOutcome(null);
    const checked = WhitelabelSettingsBodySchema.safeParse({ companyName });
    const logoError = logo ? await logoProblem(logo) : null;
    if (!checked.success || logoError) {
      setErrors({
        companyName: checked.success ? undefined : checked.error.issues[0]?.message,
        companyLogo: logoError ?? undefined,
      });
      return;
    }
    setErrors({});
    const data = new FormData();
    data.append('companyName', companyName);
    if (logo) data.append('companyLogo', logo);
    else if (removeLogo) data.append('removeLogo', 'true');
    save.mutate(data, {
      onSuccess: (reply) => {
        setCompanyName(reply.companyName ?? '');
        setLogo(null);
        setRemoveLogo(false);
        setFileKey((k) => k + 1);
        setOutcome({ ok: true, text: text.updated });
      },
      onError: (err) => {
        const detail = err instanceof ApiError ? err.serverMessage : undefined;
        setOutcome({ ok: false, text: text.updateFailed, detail });
      },
    });
  }

  function reset() {
    const data = new FormData();
    data.append('companyName', '');
    data.append('removeLogo', 'true');
    save.mutate(data, {
      onSuccess: () => {
        setCompanyName('');
        setLogo(null);
        setRemoveLogo(false);
        setErrors({});
        setFileKey((k) => k + 1);
        setConfirmReset(false);
        setOutcome({ ok: true, text: text.resetDone });
      },
      onError: (err) => {
        const detail = err instanceof ApiError ? err.serverMessage : undefined;
        setConfirmReset(false);
        setOutcome({ ok: false, text: text.resetFailed, detail });
      },
    });
  }

  const storedUrl = removeLogo ? null : loaded.companyLogo;
  const hasOwn = loaded.companyName !== null || loaded.companyLogo !== null;
  return (
    <div>
      <h1 className="h3 mb-3">{text.title}</h1>
      <Card className="shadow-sm whitelabel-card">
        <Card.Body>
          <p className="mb-1">{isAdmin ? text.adminIntro : text.ownerIntro}</p>
          {shown.data && (
            <p className="small text-muted mb-3" data-testid="whitelabel-shown">
              {text.currentlyShown(shown.data.companyName)}
            </p>
          )}
          {outcome && (
            <Alert
              variant={outcome.ok ? 'success' : 'danger'}
              dismissible
              onClose={() => setOutcome(null)}
            >
              {outcome.text}
              {outcome.detail && outcome.detail !== outcome.text && (
                <div className="small mt-1">{outcome.detail}</div>
              )}
            </Alert>
          )}
          <Form noValidate onSubmit={(e) => void submit(e)} aria-label={text.title}>
            <TextField
              controlId="whitelabel-company-name"
              label={text.companyName}
              value={companyName}
              onChange={setCompanyName}
              error={errors.companyName}
            />
            <Form.Group className="mb-3" controlId="whitelabel-company-logo">
              <Form.Label>{text.companyLogo}</Form.Label>
              <Form.Control
                key={fileKey}
                type="file"
                accept={LOGO_MIME_TYPES.join(',')}
                isInvalid={!!errors.companyLogo}
                onChange={(e) => {
                  const input = e.target as HTMLInputElement;
                  void chooseLogo(input.files?.[0] ?? null);
                }}
              />
              <Form.Text muted>{text.logoHint}</Form.Text>
              <Form.Control.Feedback type="invalid">{errors.companyLogo}</Form.Control.Feedback>
              {loaded.companyLogo && !logo && (
                <Form.Check
                  className="mt-2"
                  id="whitelabel-remove-logo"
                  label={text.removeLogo}
                  checked={removeLogo}
                  onChange={(e) => setRemoveLogo(e.target.checked)}
                />
              )}
            </Form.Group>
            <LogoPreview file={logo} storedUrl={storedUrl} companyName={companyName} />
            <div className="d-flex flex-wrap gap-2">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
                {save.isPending ? text.saving : text.save}
              </Button>
              {hasOwn && (
                <Button
                  variant="outline-danger"
                  disabled={save.isPending}
                  onClick={() => setConfirmReset(true)}
                >
                  {text.reset}
                </Button>
              )}
            </div>
          </Form>
        </Card.Body>
      </Card>
      <QuietHoursCard />
      <ConfirmDialog
        show={confirmReset}
        title={text.resetConfirmTitle}
        confirmLabel={save.isPending ? text.resetting : text.reset}
        variant="danger"
        busy={save.isPending}
        onConfirm={reset}
        onCancel={() => setConfirmReset(false)}
      >
        {text.resetConfirm}
      </ConfirmDialog>
    </div>
  );
}
