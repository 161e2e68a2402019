import { useRef, useState } from 'react';
import { Alert, Button, Form, InputGroup } from 'react-bootstrap';
import { ui, type CreateApiKeyReply } from '@herald/contract';
import { kindLabel } from './api-keys-logic';

const t = ui.apiKeys;

/**
 * The key just made, shown this once (the server never answers it again): its kind, the whole
 * secret in a read-only field, a Copy button, and Done to put it away.
 */
export function NewKeySecret({
  created,
  onDone,
}: {
  created: CreateApiKeyReply;
  onDone: () => void;
}) {
  const field = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');

  async function copySecret() {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopy('copied');
    } catch {
      // No clipboard (insecure page, denied): the key is selected for the person to copy.
      field.current?.select();
      setCopy('failed');
    }
  }

  return (
    <Alert variant="success" className="mb-0" aria-labelledby="new-key-title">
      <h2 id="new-key-title" className="h6">
        {t.secretTitle(kindLabel(created.key.kind).toLowerCase())}
      </h2>
      <p className="mb-2">{created.message}</p>
      <Form.Group controlId="new-key-secret">
        <Form.Label className="visually-hidden">{t.secretLabel}</Form.Label>
        <InputGroup>
          <Form.Control
            ref={field}
            readOnly
            value={created.secret}
            className="font-monospace"
            aria-describedby="new-key-hint"
            onFocus={(e) => e.currentTarget.select()}
          />
          <Button variant="outline-secondary" onClick={() => void copySecret()}>
            {copy === 'copied' ? t.copied : t.copyButton}
          </Button>
        </InputGroup>
      </Form.Group>
      <div id="new-key-hint" className="small mt-1" role="status">
        {copy === 'failed' ? t.copyFailed : t.secretHint}
      </div>
      <Button variant="success" size="sm" className="mt-2" onClick={onDone}>
        {t.secretDone}
      </Button>
    </Alert>
  );
}
