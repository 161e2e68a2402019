import { Alert } from 'react-bootstrap';
import { ApiError } from '../../lib/api-client';

/** What the last create or delete came to: the screen's text, and the server's reason if any. */
export interface Outcome {
  ok: boolean;
  text: string;
  detail?: string | undefined;
}

/**
 * A failure shows the screen's message as it stands (docs/product.md, Limits and messages: it does
 * not prefer the server's for announcements), with the server's reason below it, e.g. an unknown
 * target email.
 */
export function failure(err: unknown, text: string): Outcome {
  const detail = err instanceof ApiError ? err.serverMessage : undefined;
  return { ok: false, text, detail: detail && detail !== text ? detail : undefined };
}

export function OutcomeAlert({ outcome, onClose }: { outcome: Outcome; onClose: () => void }) {
  return (
    <Alert variant={outcome.ok ? 'success' : 'danger'} dismissible onClose={onClose}>
      {outcome.text}
      {outcome.detail && <div className="small mt-1">{outcome.detail}</div>}
    </Alert>
  );
}
