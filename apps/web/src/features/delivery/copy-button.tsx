import { useState } from 'react';
import { Button } from 'react-bootstrap';
import { ui } from '@herald/contract';

const t = ui.providers;

/**
 * Copies `text` to the clipboard and says so beside the button, in a live region so a screen
 * reader hears it; where the browser refuses the clipboard it says to copy by hand.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () => {
    // Outside a secure context the browser has no navigator.clipboard: that throws in the chain.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(text))
      .then(
        () => setState('copied'),
        () => setState('failed'),
      );
  };
  return (
    <span className="d-inline-flex align-items-center gap-2 flex-wrap">
      <Button size="sm" variant="outline-secondary" aria-label={label} onClick={copy}>
        {t.copy}
      </Button>
      <span role="status" className={state === 'failed' ? 'small text-danger' : 'small text-muted'}>
        {state === 'copied' ? t.copied : state === 'failed' ? t.copyFailed : ''}
      </span>
    </span>
  );
}
