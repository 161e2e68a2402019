import { describe, expect, it } from 'vitest';
import { formatCount } from './format-count.js';

describe('formatCount', () => {
  it('groups thousands with commas in every locale, as en-US Intl does', () => {
    const en = new Intl.NumberFormat('en-US');
    for (const n of [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 1_234_567_890, -4_200, 2.5]) {
      expect(formatCount(n)).toBe(en.format(n));
    }
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(1234.56789)).toBe('1,234.568');
    expect(formatCount(Number.MAX_SAFE_INTEGER)).toBe(en.format(Number.MAX_SAFE_INTEGER));
    expect(formatCount(-0.0001)).toBe('0');
    expect(formatCount(Number.NaN)).toBe('NaN');
  });
});
