import { describe, expect, it } from 'vitest';
import { formatSendAt, isoToLocalInput, localInputToIso } from './send-at';

describe('send-at', () => {
  it('reads a datetime-local value as the browser’s local time, and back', () => {
    const iso = localInputToIso('2026-12-24T18:00');
    const local = new Date(2026, 11, 24, 18, 0);
    expect(iso).toBe(local.toISOString());
    expect(isoToLocalInput(new Date(iso))).toBe('2026-12-24T18:00');
  });

  it('keeps an empty value empty and passes an unreadable one on for the schema to refuse', () => {
    expect(localInputToIso('  ')).toBe('');
    expect(localInputToIso('soon')).toBe('soon');
  });

  it('shows an instant in the given zone with the zone named', () => {
    const iso = '2026-12-24T17:00:00.000Z';
    expect(formatSendAt(iso, 'Europe/Berlin', 'en-GB')).toBe('24 Dec 2026, 18:00 (Europe/Berlin)');
    expect(formatSendAt(iso, 'Asia/Kolkata', 'en-GB')).toBe('24 Dec 2026, 22:30 (Asia/Kolkata)');
    expect(formatSendAt(iso, 'UTC', 'en-US')).toBe('Dec 24, 2026, 5:00 PM (UTC)');
    expect(formatSendAt('nonsense', 'UTC')).toBe('-');
  });
});
