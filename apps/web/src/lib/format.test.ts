import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, orDash } from './format';

describe('formatBytes', () => {
  it('uses B, KB and MB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});

describe('orDash', () => {
  it('shows a dash for empty values only', () => {
    expect(orDash(null)).toBe('-');
    expect(orDash('  ')).toBe('-');
    expect(orDash('x')).toBe('x');
  });
});

describe('formatDate', () => {
  it('writes the local day, a month name and the year, or a dash', () => {
    expect(formatDate(new Date(2026, 11, 2, 23, 59).toISOString())).toBe('2 Dec 2026');
    expect(formatDate(new Date(2025, 0, 31).toISOString())).toBe('31 Jan 2025');
    expect(formatDate(null)).toBe('-');
    expect(formatDate('not a date')).toBe('-');
  });
});
