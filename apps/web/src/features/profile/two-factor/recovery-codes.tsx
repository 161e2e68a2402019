import { Alert, Button } from 'react-bootstrap';
import { twoFactorUi as t } from '@herald/contract';

/** The recovery codes, shown once after enrolment or when new ones are made. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title" className="h6">
        {t.codesTitle}
      </h3>
      <Alert variant="warning">{t.codesIntro}</Alert>
      <ul
        className="list-unstyled row g-2 font-monospace mb-3"
        aria-label={t.codesListLabel}
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code} className="col-6">
            <code className="text-body">{code}</code>
          </li>
        ))}
      </ul>
      <Button onClick={onDone}>{t.codesDone}</Button>
    </section>
  );
}
