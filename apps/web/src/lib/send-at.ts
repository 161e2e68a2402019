/**
 * A campaign's "Send at" on the screens: entered and shown in the browser's own time zone,
 * sent and stored in UTC (docs/delivery.md, Scheduled sends).
 */

/** The browser's IANA time zone, e.g. `Europe/Berlin` (what the field's hint names). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * A `datetime-local` input's value (`2026-12-24T18:00`, the browser's local time) as the ISO
 * instant the server takes; '' stays ''. Anything unreadable is passed on as typed, so the
 * contract's schema answers with its own message.
 */
export function localInputToIso(value: string): string {
  const v = value.trim();
  if (!v) return '';
  const at = new Date(v);
  return Number.isNaN(at.getTime()) ? v : at.toISOString();
}

/** An instant as a `datetime-local` value in the browser's time zone (the field's min/max). */
export function isoToLocalInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/**
 * An instant in the viewer's zone and locale, with the zone named: "Dec 24, 2026, 6:00 PM
 * (Europe/Berlin)" for en-US. `locale` is for tests; the screens use the browser's.
 */
export function formatSendAt(
  iso: string,
  timeZone: string = browserTimeZone(),
  locale?: string,
): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '-';
  const text = at.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  return `${text} (${timeZone})`;
}
