import { describe, expect, it } from 'vitest';
import { normalizeRecipient, parseRecipientText } from './recipients.js';

describe('recipients', () => {
  it('normalises and validates tokens', () => {
    expect(normalizeRecipient('+91 (98765) 432-10')).toBe('919876543210');
    expect(normalizeRecipient('98.76.54.32.10')).toBe('9876543210');
    expect(normalizeRecipient('123456')).toBeNull(); // 6 digits
    expect(normalizeRecipient('1234567')).toBe('1234567');
    expect(normalizeRecipient('1234567890123456')).toBeNull(); // 16 digits
    expect(normalizeRecipient('98765abc10')).toBeNull();
  });

  it('splits on whitespace, commas, semicolons and newlines, counting drops', () => {
    const r = parseRecipientText(
      '9876543210, 9876543210;12\n+1-555-0100-999\t\r\n  ;;, 919876543210',
    );
    expect(r.numbers).toEqual(['9876543210', '15550100999', '919876543210']);
    expect(r).toMatchObject({ kept: 3, invalid: 1, duplicates: 1 });
  });
});
