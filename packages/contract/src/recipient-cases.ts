/**
 * The recipient rules (recipients.ts) as a table of inputs and what they must give. Two parsers
 * implement them, each for its own target: the server's scanner (apps/server campaigns
 * `recipient-scan.ts`) checks the `to` text a campaign is sent with, and the browser's byte
 * scanner (apps/web campaigns `recipients/scan-text.ts`) parses a pasted million numbers in a
 * worker. A test on each side runs every case through its parser, so the two agree.
 *
 * Test data only: imported as `@herald/contract/recipient-cases`, never from the index, so no
 * bundle carries it.
 */
export interface RecipientCase {
  /** What the case shows. */
  name: string;
  /** Pasted text, as typed into the recipients box or sent as `to`. */
  text: string;
  /**
   * The kept numbers in the parsers' key order (recipient-keys.ts): by digit count, then by
   * value, leading zeros kept; each once.
   */
  numbers: string[];
  /** Digit strings outside 7–15 digits. */
  invalid: number;
  /** Tokens that are not numbers: letters, other characters, or nothing left after stripping. */
  ignored: number;
  /** Kept numbers seen again after the first time. */
  duplicates: number;
}

export const RECIPIENT_CASES: readonly RecipientCase[] = [
  { name: 'empty text', text: '', numbers: [], invalid: 0, ignored: 0, duplicates: 0 },
  {
    name: 'separators only',
    text: ' , ;\n\t;;,\r\n ',
    numbers: [],
    invalid: 0,
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'one number a line',
    text: '9876543210\n9123456780\n9988776655\n',
    numbers: ['9123456780', '9876543210', '9988776655'],
    invalid: 0,
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'CRLF lines and empty lines',
    text: '\r\n9876543210\r\n\r\n\r\n9123456780\r\n\r\n',
    numbers: ['9123456780', '9876543210'],
    invalid: 0,
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'commas, semicolons, tabs and spaces together',
    text: '9876543210, 9123456780;9988776655\t9090909090 ,; 9191919191',
    numbers: ['9090909090', '9123456780', '9191919191', '9876543210', '9988776655'],
    invalid: 0,
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'dashes, dots and brackets are stripped inside a number',
    text: '987-654-3210 98.76.54.32.10 (555)1234567 555-123-4567',
    numbers: ['5551234567', '9876543210'],
    invalid: 0,
    ignored: 0,
    duplicates: 2,
  },
  {
    name: 'a +91 prefix is kept as digits',
    text: '+919876543210 +91-98765-43210 9876543210',
    numbers: ['9876543210', '919876543210'],
    invalid: 0,
    ignored: 0,
    duplicates: 1,
  },
  {
    name: 'a space inside a number splits it into short, invalid pieces',
    text: '+91 98765 43210',
    numbers: [],
    invalid: 3,
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'a leading 0 makes another number',
    text: '09876543210 9876543210 0091.98765.43210 0987654321 987654321',
    numbers: ['987654321', '0987654321', '9876543210', '09876543210', '00919876543210'],
    invalid: 0,
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'duplicates, however written',
    text: '9876543210,9876543210;+9876543210\n98-7654-3210 (98765)43210',
    numbers: ['9876543210'],
    invalid: 0,
    ignored: 0,
    duplicates: 4,
  },
  {
    name: 'seven to fifteen digits are kept, fewer or more are invalid',
    text: '123456 1234567 123456789012345 1234567890123456 12345678901234567890',
    numbers: ['1234567', '123456789012345'],
    invalid: 3,
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'zeros only, leading zeros counted',
    text: '0000000 00000000 0000000 000000000000000',
    numbers: ['0000000', '00000000', '000000000000000'],
    invalid: 0,
    ignored: 0,
    duplicates: 1,
  },
  {
    name: 'key order: by length, then value',
    text: '1000000,10000000,1000001,100000000000000,999999999999999',
    numbers: ['1000000', '1000001', '10000000', '100000000000000', '999999999999999'],
    invalid: 0,
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'CSV-ish text: header, names and numbers split on commas',
    text: 'Name,Phone\nAsha,9876543210\nRavi,12345\n-,1234567890123456',
    numbers: ['9876543210'],
    invalid: 2,
    ignored: 5,
    duplicates: 0,
  },
  {
    name: 'quoted cells are not numbers in pasted text',
    text: '"9876543210","9123456780"\n9988776655',
    numbers: ['9988776655'],
    invalid: 0,
    ignored: 2,
    duplicates: 0,
  },
  {
    name: 'letters inside a number, and strip characters alone, are not numbers',
    text: '98765abc10 12a4567 +-(). - x1 1234567',
    numbers: ['1234567'],
    invalid: 0,
    ignored: 5,
    duplicates: 0,
  },
  {
    name: 'a byte order mark and Unicode spaces separate',
    text: '\ufeff1234567\u00a07654321\u20001234568\u200a7654322\u202f1234569\u30007654323\u2028',
    numbers: ['1234567', '1234568', '1234569', '7654321', '7654322', '7654323'],
    invalid: 0,
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'vertical tab and form feed separate',
    text: '1234567\u000b7654321\u000c1234567',
    numbers: ['1234567', '7654321'],
    invalid: 0,
    ignored: 0,
    duplicates: 1,
  },
  {
    name: 'zero-width space and NEL are not separators',
    text: '1234567\u200b7654321 1234567\u00857654321 9876543210',
    numbers: ['9876543210'],
    invalid: 0,
    ignored: 2,
    duplicates: 0,
  },
  {
    name: 'digits of other scripts are not digits',
    text: '１２３４５６７ \u0661\u0662\u0663\u0664\u0665\u0666\u0667 1234567',
    numbers: ['1234567'],
    invalid: 0,
    ignored: 2,
    duplicates: 0,
  },
  {
    name: 'an emoji inside a number',
    text: '123\ud83d\ude004567 1234567',
    numbers: ['1234567'],
    invalid: 0,
    ignored: 1,
    duplicates: 0,
  },
  {
    name: 'a mixed paste from a spreadsheet',
    text: 'Phone\r\n+91 9876543210\r\n9876543210\r\n98765-43210\r\n\r\n12\r\nn/a\r\n0 9123456780\r\n',
    numbers: ['9123456780', '9876543210'],
    invalid: 3,
    ignored: 2,
    duplicates: 2,
  },
];
