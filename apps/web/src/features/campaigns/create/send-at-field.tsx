import { useMemo } from 'react';
import { SEND_AT_MAX_DAYS, scheduleUi } from '@herald/contract';
import { TextField } from '../../../components/form-field';
import { browserTimeZone, isoToLocalInput } from '../../../lib/send-at';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The optional "Send at": a date and time in the browser's time zone, named in the hint; the
 * form sends it in UTC (create-form-logic.ts). The picker offers now to SEND_AT_MAX_DAYS ahead;
 * the contract's schema checks the same bounds on submit and on the server.
 */
export function SendAtField(props: {
  value: string;
  error: string | undefined;
  disabled: boolean;
  onChange: (sendAt: string) => void;
}) {
  const zone = useMemo(browserTimeZone, []);
  const now = Date.now();
  return (
    <TextField
      controlId="campaign-send-at"
      label={scheduleUi.sendAtLabel}
      type="datetime-local"
      value={props.value}
      error={props.error}
      hint={scheduleUi.sendAtHint(zone)}
      disabled={props.disabled}
      min={isoToLocalInput(new Date(now))}
      max={isoToLocalInput(new Date(now + SEND_AT_MAX_DAYS * DAY_MS))}
      onChange={props.onChange}
    />
  );
}
