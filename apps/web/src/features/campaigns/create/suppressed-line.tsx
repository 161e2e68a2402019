import { useEffect, useMemo, useState } from 'react';
import { SUPPRESSION_CHECK_DEBOUNCE_MS, ui } from '@herald/contract';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import {
  checkBody,
  keysKey,
  useSuppressedCount,
} from '../../../api/suppressions/check-suppressions';
import { encodeRecipients } from './create-form-logic';

interface SuppressedLineProps {
  /** The form's recipients as keys (the parser's list). */
  keys: Float64Array;
  /** Campaign For; '' is the caller itself. */
  userEmail: string;
}

/** A check's body, with the list and owner it was built for. */
interface Built {
  keys: Float64Array;
  userEmail: string;
  body: Blob;
}

/**
 * Under the recipient count (docs/product.md, Opt-outs): how many of the numbers are on the
 * owner's suppression list and will not be sent to. Asked once the list stayed unchanged for
 * SUPPRESSION_CHECK_DEBOUNCE_MS (after a paste or a file, never per keystroke), with the numbers
 * written as the campaign's own `to` (encodeRecipients, which yields while it writes).
 */
export function SuppressedLine({ keys, userEmail }: SuppressedLineProps) {
  const settled = useDebouncedValue(keys, SUPPRESSION_CHECK_DEBOUNCE_MS);
  const [built, setBuilt] = useState<Built | null>(null);
  useEffect(() => {
    if (settled.length === 0) return;
    let current = true;
    void encodeRecipients(settled).then((bytes) => {
      if (current) setBuilt({ keys: settled, userEmail, body: checkBody(bytes, userEmail) });
    });
    return () => {
      current = false;
    };
  }, [settled, userEmail]);
  const key = useMemo(() => keysKey(settled), [settled]);
  const ready =
    settled.length > 0 && built?.keys === settled && built.userEmail === userEmail ? built : null;
  const { suppressed, failed } = useSuppressedCount(
    ready && { key: `${key}:${userEmail}`, body: ready.body },
  );
  if (failed) {
    return <div className="small text-muted">{ui.campaigns.suppressedCheckFailed}</div>;
  }
  if (keys.length === 0 || !suppressed) return null;
  return (
    <div className="small fw-semibold text-body" data-testid="campaign-suppressed">
      {ui.campaigns.suppressedLine(suppressed)}
    </div>
  );
}
