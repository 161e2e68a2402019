import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Col, Form, Row } from 'react-bootstrap';
import { CLEANUP_CONFIRM_WORD, CleanupDataTypes, ui, type CleanupDataType } from '@herald/contract';
import { useCleanupData } from '../../api/backup/cleanup';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { cleanupError, confirmText, type CleanupValues } from './cleanup-logic';

/**
 * Date-range data cleanup: campaigns, users (never Admins) or
 * transactions; both dates required; a confirm dialog; for users, the warning that their
 * campaigns, tickets and transactions go too.
 */
export function CleanupCard() {
  const [values, setValues] = useState<CleanupValues>({
    dataType: 'campaigns',
    fromDate: '',
    toDate: '',
  });
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const cleanup = useCleanupData();

  const set = (patch: Partial<CleanupValues>) => setValues((v) => ({ ...v, ...patch }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSuccess(null);
    const problem = cleanupError(values);
    setError(problem);
    if (!problem) {
      setTyped('');
      setConfirming(true);
    }
  };

  const run = () => {
    cleanup.mutate(
      { ...values, confirm: typed },
      {
        onSuccess: (reply) => {
          setConfirming(false);
          setSuccess(reply.message);
        },
        onError: () => {
          setConfirming(false);
          setError(ui.backup.cleanupFailed);
        },
      },
    );
  };

  return (
    <Card className="mb-4">
      <Card.Header as="h2" className="h5">
        {ui.backup.cleanupTitle}
      </Card.Header>
      <Card.Body>
        {error && (
          <Alert variant="danger" dismissible onClose={() => setError(null)}>
            {error}
          </Alert>
        )}
        {success && (
          <Alert variant="success" dismissible onClose={() => setSuccess(null)}>
            {success}
          </Alert>
        )}
        <Form noValidate onSubmit={submit}>
          <Row className="g-3 align-items-end">
            <Col md={3}>
              <Form.Group controlId="cleanup-type">
                <Form.Label>{ui.backup.dataType}</Form.Label>
                <Form.Select
                  value={values.dataType}
                  onChange={(e) => set({ dataType: e.target.value as CleanupDataType })}
                >
                  {CleanupDataTypes.map((t) => (
                    <option key={t} value={t}>
                      {ui.backup.dataTypes[t]}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
            </Col>
            <Col md={3}>
              <Form.Group controlId="cleanup-from">
                <Form.Label>{ui.backup.fromDate}</Form.Label>
                <Form.Control
                  type="date"
                  value={values.fromDate}
                  onChange={(e) => set({ fromDate: e.target.value })}
                />
              </Form.Group>
            </Col>
            <Col md={3}>
              <Form.Group controlId="cleanup-to">
                <Form.Label>{ui.backup.toDate}</Form.Label>
                <Form.Control
                  type="date"
                  value={values.toDate}
                  onChange={(e) => set({ toDate: e.target.value })}
                />
              </Form.Group>
            </Col>
            <Col md={3}>
              <Button type="submit" variant="danger" className="w-100" disabled={cleanup.isPending}>
                {ui.backup.cleanupButton}
              </Button>
            </Col>
          </Row>
          {values.dataType === 'users' && (
            <Alert variant="warning" className="mt-3 mb-0" data-testid="users-warning">
              {ui.backup.usersWarning}
            </Alert>
          )}
        </Form>
      </Card.Body>
      <ConfirmDialog
        show={confirming}
        title={ui.backup.confirmTitle}
        confirmLabel={ui.backup.confirmButton}
        variant="danger"
        busy={cleanup.isPending}
        confirmDisabled={typed !== CLEANUP_CONFIRM_WORD}
        onConfirm={run}
        onCancel={() => setConfirming(false)}
      >
        <p className="mb-2">{confirmText(values)}</p>
        {values.dataType === 'users' && <p className="text-danger">{ui.backup.usersWarning}</p>}
        <Form.Group controlId="cleanup-confirm-word">
          <Form.Label>{ui.backup.typeToConfirm(CLEANUP_CONFIRM_WORD)}</Form.Label>
          <Form.Control
            value={typed}
            autoComplete="off"
            onChange={(e) => setTyped(e.target.value)}
          />
        </Form.Group>
      </ConfirmDialog>
    </Card>
  );
}
