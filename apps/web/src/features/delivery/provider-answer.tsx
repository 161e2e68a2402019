import { useId } from 'react';
import { Alert } from 'react-bootstrap';
import { ui, type ProviderTestResult } from '@herald/contract';
import './providers.css';

const t = ui.providers;

/** A test message's outcome, and the provider's own answer: its HTTP status and raw body. */
export function ProviderAnswer({ result }: { result: ProviderTestResult }) {
  const headingId = useId();
  return (
    <div className="mt-3">
      <Alert variant={result.ok ? 'success' : 'danger'} className="mb-2">
        {result.message}
      </Alert>
      <h3 id={headingId} className="h6 mb-1">
        {t.testAnswer}
      </h3>
      <p className="small mb-1">{t.testStatus(result.status)}</p>
      {result.providerMessageId && (
        <p className="small mb-1 text-break">{t.testMessageId(result.providerMessageId)}</p>
      )}
      {/* Focusable, so a keyboard can scroll a long answer (axe: scrollable-region-focusable). */}
      <pre
        className="provider-answer border rounded small p-2 mb-0"
        tabIndex={0}
        role="region"
        aria-labelledby={headingId}
      >
        {result.body}
      </pre>
    </div>
  );
}
