import { describe, expect, it } from 'vitest';
import { isNotANumber, normalizeRecipient, RECIPIENT_SEPARATORS } from './recipients.js';
import { RECIPIENT_CASES } from './recipient-cases.js';
import { ui } from './ui-messages.js';

describe('recipients', () => {
  it('normalises and validates tokens', () => {
    expect(normalizeRecipient('+91 (98765) 432-10')).toBe('919876543210');
    expect(normalizeRecipient('98.76.54.32.10')).toBe('9876543210');
    expect(normalizeRecipient('123456')).toBeNull(); // 6 digits
    expect(normalizeRecipient('1234567')).toBe('1234567');
    expect(normalizeRecipient('1234567890123456')).toBeNull(); // 16 digits
    expect(normalizeRecipient('98765abc10')).toBeNull();
  });

  it('counts tokens that are not numbers apart from digit strings of the wrong length', () => {
    expect(isNotANumber('Phone')).toBe(true);
    expect(isNotANumber('98765abc10')).toBe(true);
    expect(isNotANumber('-')).toBe(true); // nothing left after stripping
    expect(isNotANumber('+91 (98765)')).toBe(false);
    expect(isNotANumber('123')).toBe(false);
  });
});

describe('the shared table of recipient cases', () => {
  const HARD = /[,;\t\n\v\f\r\u2028\u2029\ufeff]+/;
  it('gives each line at least one entry and each piece at most one', () => {
    for (const c of RECIPIENT_CASES) {
      const lines = c.text.split(HARD).filter((l) => l.trim()).length;
      const pieces = c.text.split(RECIPIENT_SEPARATORS).filter(Boolean).length;
      const counted = c.numbers.length + c.invalid.length + c.ignored + c.duplicates;
      expect(counted, c.name).toBeGreaterThanOrEqual(lines);
      expect(counted, c.name).toBeLessThanOrEqual(pieces);
    }
  });

  it('keeps only normalised numbers, each once, and lists invalid entries as written', () => {
    for (const c of RECIPIENT_CASES) {
      for (const n of c.numbers) expect(normalizeRecipient(n), c.name).toBe(n);
      expect(new Set(c.numbers).size, c.name).toBe(c.numbers.length);
      for (const entry of c.invalid) {
        expect(c.text, c.name).toContain(entry);
        expect(isNotANumber(entry), c.name).toBe(false);
        expect(normalizeRecipient(entry), c.name).toBeNull();
      }
    }
  });

  it('has a name for each case, once', () => {
    const names = RECIPIENT_CASES.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('the invalid entries list', () => {
  it('says why an entry is invalid and how many are shown', () => {
    expect(ui.campaigns.invalidEntryReason(1)).toBe('1 digit, fewer than 7');
    expect(ui.campaigns.invalidEntryReason(6)).toBe('6 digits, fewer than 7');
    expect(ui.campaigns.invalidEntryReason(16)).toBe('16 digits, more than 15');
    expect(ui.campaigns.invalidEntriesTitle(3, 3)).toBe('Invalid entries');
    expect(ui.campaigns.invalidEntriesTitle(100, 1500)).toBe(
      'Invalid entries: the first 100 of 1,500',
    );
    expect(ui.campaigns.invalidEntriesDownload(1)).toBe('Download all 1 invalid entry');
  });
});
