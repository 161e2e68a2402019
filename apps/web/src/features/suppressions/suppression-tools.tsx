import { useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Col, Form, Row, Spinner } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { useAddSuppression } from '../../api/suppressions/add-suppression';
import { useImportSuppressions } from '../../api/suppressions/import-suppressions';
import { exportSuppressions } from '../../api/suppressions/export-suppressions';
import type { SuppressionFilters } from '../../api/suppressions/get-suppressions';
import { checkPhone } from './suppressions-logic';

const t = ui.suppressions;

type Outcome = { ok: boolean; text: string } | null;

/** Add a number by hand, import a CSV into one's own list, export what the filters show. */
export function SuppressionTools({ filters }: { filters: SuppressionFilters }) {
  const [phone, setPhone] = useState('');
  const [phoneError, setPhoneError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [exporting, setExporting] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const add = useAddSuppression();
  const importing = useImportSuppressions();

  function submitAdd(e: FormEvent) {
    e.preventDefault();
    const checked = checkPhone(phone);
    if ('error' in checked) {
      setPhoneError(checked.error);
      return;
    }
    setPhoneError(undefined);
    add.mutate(
      { phone: checked.phone },
      {
        onSuccess: (r) => {
          setPhone('');
          setOutcome({ ok: true, text: r.message });
        },
        onError: (err) => setOutcome({ ok: false, text: errorMessage(err, t.addFailed) }),
      },
    );
  }

  function submitImport(e: FormEvent) {
    e.preventDefault();
    if (!file) return;
    importing.mutate(file, {
      onSuccess: (r) => {
        setOutcome({ ok: true, text: r.message });
        setFile(null);
        if (fileRef.current) fileRef.current.value = '';
      },
      onError: (err) => setOutcome({ ok: false, text: errorMessage(err, t.importFailed) }),
    });
  }

  async function runExport() {
    setExporting(true);
    try {
      await exportSuppressions(filters);
    } catch (err) {
      setOutcome({ ok: false, text: errorMessage(err, t.exportFailed) });
    } finally {
      setExporting(false);
    }
  }

  return (
    <>
      <Row className="g-3 align-items-end mb-3">
        <Col md={5}>
          <Form noValidate onSubmit={submitAdd}>
            <Form.Group controlId="suppression-phone">
              <Form.Label>{t.phoneLabel}</Form.Label>
              <div className="d-flex gap-2">
                <Form.Control
                  type="tel"
                  inputMode="tel"
                  autoComplete="off"
                  placeholder="+91 98765 43210"
                  value={phone}
                  isInvalid={phoneError !== undefined}
                  aria-invalid={phoneError !== undefined || undefined}
                  aria-describedby={phoneError ? 'suppression-phone-error' : undefined}
                  onChange={(e) => setPhone(e.target.value)}
                />
                <Button type="submit" className="text-nowrap" disabled={add.isPending}>
                  {add.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
                  {t.addButton}
                </Button>
              </div>
              {phoneError && (
                <div id="suppression-phone-error" className="invalid-feedback d-block">
                  {phoneError}
                </div>
              )}
            </Form.Group>
          </Form>
        </Col>
        <Col md={5}>
          <Form noValidate onSubmit={submitImport}>
            <Form.Group controlId="suppression-import">
              <Form.Label>{t.importLabel}</Form.Label>
              <div className="d-flex gap-2">
                <Form.Control
                  ref={fileRef}
                  type="file"
                  accept=".csv,text/csv"
                  aria-describedby="suppression-import-hint"
                  onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
                />
                <Button
                  type="submit"
                  variant="outline-primary"
                  disabled={!file || importing.isPending}
                >
                  {importing.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
                  {t.importButton}
                </Button>
              </div>
              <Form.Text id="suppression-import-hint" muted>
                {t.importHint}
              </Form.Text>
            </Form.Group>
          </Form>
        </Col>
        <Col md={2}>
          <Button variant="outline-secondary" onClick={() => void runExport()} disabled={exporting}>
            {exporting && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            {t.exportButton}
          </Button>
        </Col>
      </Row>
      <div aria-live="polite">
        {outcome && (
          <Alert
            variant={outcome.ok ? 'success' : 'danger'}
            dismissible
            onClose={() => setOutcome(null)}
          >
            {outcome.text}
          </Alert>
        )}
      </div>
    </>
  );
}
