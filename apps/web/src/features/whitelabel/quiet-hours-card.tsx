import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Card, Col, Form, Row, Spinner } from 'react-bootstrap';
import { QuietHoursBodySchema, ui, type QuietHoursBody } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { useQuietHours, useSaveQuietHours } from '../../api/settings/quiet-hours';

const text = ui.quietHours;

interface Outcome {
  ok: boolean;
  text: string;
}

/**
 * Quiet hours on Whitelabel Settings (Admin, Reseller, Sub-Reseller; docs/product.md, Quiet
 * hours): the caller's own window, which its subtree inherits, and the one in force. A Reseller
 * or Sub-Reseller may go back to the inherited window; the Admin's is the last fallback.
 */
export function QuietHoursCard() {
  const quiet = useQuietHours();
  const save = useSaveQuietHours();
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const loaded = quiet.data;
  useEffect(() => {
    if (!loaded) return;
    const shown = loaded.own ?? loaded.effective;
    setStart(shown.start);
    setEnd(shown.end);
  }, [loaded]);

  if (quiet.isPending) return null;
  if (quiet.isError || !loaded) return <Alert variant="danger">{text.loadFailed}</Alert>;

  function send(body: QuietHoursBody) {
    setOutcome(null);
    const checked = QuietHoursBodySchema.safeParse(body);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    save.mutate(checked.data, {
      onSuccess: (reply) => setOutcome({ ok: true, text: reply.message }),
      onError: (err) => setOutcome({ ok: false, text: errorMessage(err, text.saveFailed) }),
    });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!save.isPending) send({ start, end });
  }

  return (
    <Card className="shadow-sm whitelabel-card mt-4">
      <Card.Body>
        <h2 className="h5">{text.title}</h2>
        <p className="mb-1">{text.intro}</p>
        {!loaded.canInherit && <p className="mb-1">{text.adminIntro}</p>}
        <p className="small text-muted mb-3" data-testid="quiet-hours-in-force">
          {text.inForce(loaded.effective.start, loaded.effective.end)}
          {loaded.own === null && ` · ${text.inherited}`}
        </p>
        {outcome && (
          <Alert
            variant={outcome.ok ? 'success' : 'danger'}
            dismissible
            onClose={() => setOutcome(null)}
          >
            {outcome.text}
          </Alert>
        )}
        <Form noValidate onSubmit={submit} aria-label={text.title}>
          <Row className="g-3 mb-3">
            <Col xs={6} sm={4}>
              <Form.Group controlId="quiet-hours-start">
                <Form.Label>{text.start}</Form.Label>
                <Form.Control
                  type="time"
                  value={start}
                  isInvalid={!!error}
                  aria-describedby={error ? 'quiet-hours-error' : undefined}
                  onChange={(e) => setStart(e.target.value)}
                />
              </Form.Group>
            </Col>
            <Col xs={6} sm={4}>
              <Form.Group controlId="quiet-hours-end">
                <Form.Label>{text.end}</Form.Label>
                <Form.Control
                  type="time"
                  value={end}
                  isInvalid={!!error}
                  aria-describedby={error ? 'quiet-hours-error' : undefined}
                  onChange={(e) => setEnd(e.target.value)}
                />
              </Form.Group>
            </Col>
          </Row>
          {error && (
            <div id="quiet-hours-error" className="invalid-feedback d-block mb-3" role="alert">
              {error}
            </div>
          )}
          <div className="d-flex flex-wrap gap-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              {save.isPending ? text.saving : text.save}
            </Button>
            {loaded.canInherit && loaded.own !== null && (
              <Button
                variant="outline-secondary"
                disabled={save.isPending}
                onClick={() => send({ start: null, end: null })}
              >
                {text.useInherited}
              </Button>
            )}
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}
