import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Card, Form, Spinner } from 'react-bootstrap';
import { LOGO_MIME_TYPES, ui, WhitelabelSettingsBodySchema } from '@herald/contract';
import { TextField } from '../../components/form-field';
import { LoadingSpinner } from '../../components/loading-spinner';
import { ApiError } from '../../lib/api-client';
import {
  useSaveWhitelabelSettings,
  useWhitelabelSettings,
} from '../../api/branding/whitelabel-settings';
import { logoProblem } from './logo-check';
import { LogoPreview } from './logo-preview';
import './whitelabel.css';

const text = ui.whitelabel;

interface Outcome {
  ok: boolean;
  text: string;
  detail?: string | undefined;
}

/**
 * Whitelabel Settings (/whitelabel-settings, Reseller and Sub-Reseller): company name,
 * logo upload (png or jpeg, 200x50 recommended) and a preview before saving. Saving refreshes the
 * caller's own layout at once; its users see the change on their next page load.
 */
export function WhitelabelSettingsPage() {
  const settings = useWhitelabelSettings();
  const save = useSaveWhitelabelSettings();
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

  const storedUrl = removeLogo ? null : loaded.companyLogo;
  return (
    <div>
      <h1 className="h3 mb-3">{text.title}</h1>
      <Card className="shadow-sm whitelabel-card">
        <Card.Body>
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
            <Button type="submit" disabled={save.isPending}>
              {save.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              {save.isPending ? text.saving : text.save}
            </Button>
          </Form>
        </Card.Body>
      </Card>
    </div>
  );
}
