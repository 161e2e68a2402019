import { Alert, Button } from 'react-bootstrap';
import { ui, type CreateApiKeyReply } from '@herald/contract';
import { kindLabel } from './api-keys-logic';
import { SecretField } from './secret-field';

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
  return (
    <Alert variant="success" className="mb-0" aria-labelledby="new-key-title">
      <h2 id="new-key-title" className="h6">
        {t.secretTitle(kindLabel(created.key.kind).toLowerCase())}
      </h2>
      <p className="mb-2">{created.message}</p>
      <SecretField
        controlId="new-key-secret"
        label={t.secretLabel}
        secret={created.secret}
        hint={t.secretHint}
      />
      <Button variant="success" size="sm" className="mt-2" onClick={onDone}>
        {t.secretDone}
      </Button>
    </Alert>
  );
}
