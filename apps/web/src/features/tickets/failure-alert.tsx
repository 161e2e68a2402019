import { Alert } from 'react-bootstrap';
import { ApiError } from '../../lib/api-client';

/**
 * The screen's message for a failed ticket action, exactly (docs/product.md, Limits and messages:
 * no "server message or" for tickets), with the server's reason beneath it when it sent one, e.g. a
 * file too large.
 */
export function FailureAlert({ error, message }: { error: unknown; message: string }) {
  const reason = error instanceof ApiError ? error.serverMessage : undefined;
  return (
    <Alert variant="danger">
      {message}
      {reason && reason !== message && <div className="small mt-1">{reason}</div>}
    </Alert>
  );
}
