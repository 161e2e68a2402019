import { useRef, useState } from 'react';
import { Button, Form, InputGroup } from 'react-bootstrap';
import { ui } from '@herald/contract';

const t = ui.apiKeys;

interface SecretFieldProps {
  controlId: string;
  label: string;
  secret: string;
  /** What is said under the field until a copy fails. */
  hint: string;
}

/**
 * A secret the server answers once (an API key, a webhook signing secret): the whole value in a
 * read-only field with a Copy button, and a live line under it that says when the copy failed.
 */
export function SecretField({ controlId, label, secret, hint }: SecretFieldProps) {
  const field = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const hintId = `${controlId}-hint`;

  async function copySecret() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopy('copied');
    } catch {
      // No clipboard (insecure page, denied): the secret is selected for the person to copy.
      field.current?.select();
      setCopy('failed');
    }
  }

  return (
    <>
      <Form.Group controlId={controlId}>
        <Form.Label className="visually-hidden">{label}</Form.Label>
        <InputGroup>
          <Form.Control
            ref={field}
            readOnly
            value={secret}
            className="font-monospace"
            aria-describedby={hintId}
            onFocus={(e) => e.currentTarget.select()}
          />
          <Button variant="outline-secondary" onClick={() => void copySecret()}>
            {copy === 'copied' ? t.copied : t.copyButton}
          </Button>
        </InputGroup>
      </Form.Group>
      <div id={hintId} className="small mt-1" role="status">
        {copy === 'failed' ? t.copyFailed : hint}
      </div>
    </>
  );
}
