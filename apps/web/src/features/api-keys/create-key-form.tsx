import { useState, type FormEvent } from 'react';
import { Alert, Button, Col, Form, Row, Spinner } from 'react-bootstrap';
import {
  API_KEY_KINDS,
  API_KEY_NAME_MAX,
  ui,
  type ApiKeyKind,
  type CreateApiKeyReply,
} from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { useCreateApiKey } from '../../api/api-keys/create-api-key';
import { checkKeyForm, kindLabel } from './api-keys-logic';
import { NewKeySecret } from './new-key-secret';

const t = ui.apiKeys;

/** Create API key: a name and a kind; the new key's secret is shown under the form once. */
export function CreateKeyForm() {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ApiKeyKind>('live');
  const [nameError, setNameError] = useState<string | undefined>();
  const [failed, setFailed] = useState<string | null>(null);
  const [created, setCreated] = useState<CreateApiKeyReply | null>(null);
  const create = useCreateApiKey();

  function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkKeyForm(name, kind);
    if ('error' in checked) {
      setNameError(checked.error);
      return;
    }
    setNameError(undefined);
    setFailed(null);
    create.mutate(checked, {
      onSuccess: (reply) => {
        setName('');
        setCreated(reply);
      },
      onError: (err) => setFailed(errorMessage(err, t.createFailed)),
    });
  }

  return (
    <>
      <Form noValidate onSubmit={submit} className="mb-3">
        <Row className="g-3 align-items-start">
          <Col md={5}>
            <Form.Group controlId="api-key-name">
              <Form.Label>{t.nameLabel}</Form.Label>
              <Form.Control
                value={name}
                maxLength={API_KEY_NAME_MAX}
                autoComplete="off"
                isInvalid={nameError !== undefined}
                aria-invalid={nameError !== undefined || undefined}
                aria-describedby={nameError ? 'api-key-name-error' : 'api-key-limit'}
                onChange={(e) => setName(e.target.value)}
              />
              {nameError ? (
                <div id="api-key-name-error" className="invalid-feedback d-block">
                  {nameError}
                </div>
              ) : (
                <Form.Text id="api-key-limit">{t.limitHint}</Form.Text>
              )}
            </Form.Group>
          </Col>
          <Col md={4}>
            <fieldset>
              <legend className="form-label fs-6 mb-2">{t.kindLabel}</legend>
              {API_KEY_KINDS.map((k) => (
                <Form.Check
                  key={k}
                  type="radio"
                  id={`api-key-kind-${k}`}
                  name="api-key-kind"
                  checked={kind === k}
                  onChange={() => setKind(k)}
                  label={
                    <>
                      {kindLabel(k)} <span className="text-muted small">{t.kindHints[k]}</span>
                    </>
                  }
                />
              ))}
            </fieldset>
          </Col>
          <Col md={3} className="d-flex align-items-end">
            <Button type="submit" disabled={create.isPending} className="w-100">
              {create.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              {t.createButton}
            </Button>
          </Col>
        </Row>
      </Form>
      {failed && (
        <Alert variant="danger" className="mb-3">
          {failed}
        </Alert>
      )}
      {created && <NewKeySecret created={created} onDone={() => setCreated(null)} />}
    </>
  );
}
