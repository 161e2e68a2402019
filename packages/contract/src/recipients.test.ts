import { describe, expect, it } from 'vitest';
import { isNotANumber, normalizeRecipient, parseRecipientText } from './recipients.js';

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
    expect(r).toMatchObject({ kept: 3, invalid: 1, ignored: 0, duplicates: 1 });
  });

  it('counts tokens that are not numbers apart from digit strings of the wrong length', () => {
    expect(isNotANumber('Phone')).toBe(true);
    expect(isNotANumber('98765abc10')).toBe(true);
    expect(isNotANumber('-')).toBe(true); // nothing left after stripping
    expect(isNotANumber('+91 (98765)')).toBe(false);
    expect(isNotANumber('123')).toBe(false);
    const r = parseRecipientText('Name,Phone\nAsha,9876543210\nRavi,12345\n-,1234567890123456');
    expect(r.numbers).toEqual(['9876543210']);
    // 'Name', 'Phone', 'Asha', 'Ravi', '-' are not numbers; 12345 and the 16 digits are invalid.
    expect(r).toMatchObject({ kept: 1, ignored: 5, invalid: 2, duplicates: 0 });
  });
});
