/**
 * The recipient rules (recipients.ts) as a table of inputs and what they must give, many of
 * them as people paste them (spreadsheet columns and rows, phone contact exports, WhatsApp).
 * Two parsers implement them, each for its own target: the server's scanner (apps/server campaigns
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
  /**
   * The invalid entries (digits outside 7–15) as written, in the order of the text: the
   * browser lists them, the server counts them.
   */
  invalid: string[];
  /** Entries that are not numbers: letters, other characters, or nothing left after stripping. */
  ignored: number;
  /** Kept numbers seen again after the first time. */
  duplicates: number;
}

export const RECIPIENT_CASES: readonly RecipientCase[] = [
  { name: 'empty text', text: '', numbers: [], invalid: [], ignored: 0, duplicates: 0 },
  {
    name: 'separators only',
    text: ' , ;\n\t;;,\r\n ',
    numbers: [],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'one number a line',
    text: '9876543210\n9123456780\n9988776655\n',
    numbers: ['9123456780', '9876543210', '9988776655'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'CRLF lines and empty lines',
    text: '\r\n9876543210\r\n\r\n\r\n9123456780\r\n\r\n',
    numbers: ['9123456780', '9876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'commas, semicolons, tabs and spaces together',
    text: '9876543210, 9123456780;9988776655\t9090909090 ,; 9191919191',
    numbers: ['9090909090', '9123456780', '9191919191', '9876543210', '9988776655'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'dashes, dots and brackets are stripped inside a number',
    text: '987-654-3210 98.76.54.32.10 (555)1234567 555-123-4567',
    numbers: ['5551234567', '9876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 2,
  },
  {
    name: 'a +91 prefix is kept as digits',
    text: '+919876543210 +91-98765-43210 9876543210',
    numbers: ['9876543210', '919876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 1,
  },
  {
    name: 'a leading 0 makes another number',
    text: '09876543210 9876543210 0091.98765.43210 0987654321 987654321',
    numbers: ['987654321', '0987654321', '9876543210', '09876543210', '00919876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'duplicates, however written',
    text: '9876543210,9876543210;+9876543210\n98-7654-3210 (98765)43210',
    numbers: ['9876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 4,
  },
  {
    name: 'seven to fifteen digits are kept, fewer or more are invalid',
    text: '123456\n1234567\n123456789012345\n1234567890123456\n12345678901234567890',
    numbers: ['1234567', '123456789012345'],
    invalid: ['123456', '1234567890123456', '12345678901234567890'],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'zeros only, leading zeros counted',
    text: '0000000 00000000 0000000 000000000000000',
    numbers: ['0000000', '00000000', '000000000000000'],
    invalid: [],
    ignored: 0,
    duplicates: 1,
  },
  {
    name: 'key order: by length, then value',
    text: '1000000,10000000,1000001,100000000000000,999999999999999',
    numbers: ['1000000', '1000001', '10000000', '100000000000000', '999999999999999'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'CSV-ish text: header, names and numbers split on commas',
    text: 'Name,Phone\nAsha,9876543210\nRavi,12345\n-,1234567890123456',
    numbers: ['9876543210'],
    invalid: ['12345', '1234567890123456'],
    ignored: 5,
    duplicates: 0,
  },
  {
    name: 'quoted cells are not numbers in pasted text',
    text: '"9876543210","9123456780"\n9988776655',
    numbers: ['9988776655'],
    invalid: [],
    ignored: 2,
    duplicates: 0,
  },
  {
    name: 'letters inside a number, and strip characters alone, are not numbers',
    text: '98765abc10 12a4567 +-(). - x1 1234567',
    numbers: ['1234567'],
    invalid: [],
    // '+-(). -' is one entry: pieces with no digit gather like short ones.
    ignored: 4,
    duplicates: 0,
  },
  {
    name: 'a byte order mark and Unicode spaces separate',
    text: '\ufeff1234567\u00a07654321\u20001234568\u200a7654322\u202f1234569\u30007654323\u2028',
    numbers: ['1234567', '1234568', '1234569', '7654321', '7654322', '7654323'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'vertical tab and form feed separate',
    text: '1234567\u000b7654321\u000c1234567',
    numbers: ['1234567', '7654321'],
    invalid: [],
    ignored: 0,
    duplicates: 1,
  },
  {
    name: 'zero-width space and NEL are not separators',
    text: '1234567\u200b7654321 1234567\u00857654321 9876543210',
    numbers: ['9876543210'],
    invalid: [],
    ignored: 2,
    duplicates: 0,
  },
  {
    name: 'digits of other scripts are not digits',
    text: '１２３４５６７ \u0661\u0662\u0663\u0664\u0665\u0666\u0667 1234567',
    numbers: ['1234567'],
    invalid: [],
    ignored: 2,
    duplicates: 0,
  },
  {
    name: 'an emoji inside a number',
    text: '123\ud83d\ude004567 1234567',
    numbers: ['1234567'],
    invalid: [],
    ignored: 1,
    duplicates: 0,
  },
  {
    name: 'a mixed paste from a spreadsheet',
    text: 'Phone\r\n+91 9876543210\r\n9876543210\r\n98765-43210\r\n\r\n12\r\nn/a\r\n0 9123456780\r\n',
    numbers: ['9876543210', '09123456780', '919876543210'],
    invalid: ['12'],
    ignored: 2,
    duplicates: 1,
  },
  // Numbers as people paste them: pieces of one line joined (recipients.ts, RECIPIENT_JOINING).
  {
    name: 'WhatsApp: +91 98765 43210 is one number',
    text: '+91 98765 43210',
    numbers: ['919876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'WhatsApp: no-break and narrow no-break spaces inside a number',
    text: '+91\u00a098765\u00a043210\n+91\u202f91234\u202f56780',
    numbers: ['919123456780', '919876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'WhatsApp: several contacts copied, comma separated',
    text: '+91 98765 43210, +91 91234 56780\n+44 7911 123456',
    numbers: ['447911123456', '919123456780', '919876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'US style: (987) 654-3212 is one number',
    text: '(987) 654-3212',
    numbers: ['9876543212'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'a leading 0 written apart: 098765 43210 is one number',
    text: '098765 43210',
    numbers: ['09876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'phone contacts export: +1 with brackets, dashes or dots',
    text: '+1 (987) 654-3212\n+1 987-654-3213\n+1 987.654.3214\n+44 20 7946 0958\n+33 6 12 34 56 78',
    numbers: ['19876543212', '19876543213', '19876543214', '33612345678', '442079460958'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'two full numbers separated by a space stay two',
    text: '9876543210 9123456780\n+919876543211 +919123456781',
    numbers: ['9123456780', '9876543210', '919123456781', '919876543211'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'a + starts the next number on the same line',
    text: '+91 98765 43210 +91 91234 56780 +1 (987) 654-3212',
    numbers: ['19876543212', '919123456780', '919876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'two spaced numbers with no + between them run together: invalid, listed whole',
    text: '98765 43210 91234 56780\n9876543211',
    numbers: ['9876543211'],
    invalid: ['98765 43210 91234 56780'],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'a long piece completes short ones only within 15 digits',
    text: '12345 1234567890123\n+91 9876543210\n1 12345678901234',
    numbers: ['919876543210', '1234567890123', '112345678901234'],
    invalid: ['12345'],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'a short piece after a full number is an entry of its own',
    text: '9876543210 12\n9876543 210',
    numbers: ['9876543', '9876543210'],
    invalid: ['12', '210'],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'short pieces that stay short are one invalid entry',
    text: '12 34\n5;(91) 234',
    numbers: [],
    invalid: ['12 34', '5', '(91) 234'],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'spreadsheet column copied: header, spaced and dashed numbers, blank cells',
    text: 'Mobile\n98765 43210\n91234-56780\n\n+91 99887 76655\n',
    numbers: ['9123456780', '9876543210', '919988776655'],
    invalid: [],
    ignored: 1,
    duplicates: 0,
  },
  {
    name: 'spreadsheet rows copied: tabs separate cells, spaces stay inside a cell',
    text: 'Asha\t+91 98765 43210\tDelhi\r\nRavi\t91234 56780\tPune\r\n',
    numbers: ['9123456780', '919876543210'],
    invalid: [],
    ignored: 4,
    duplicates: 0,
  },
  {
    name: 'a tab between a country code and a number separates them',
    text: '+91\t9876543210',
    numbers: ['9876543210'],
    invalid: ['+91'],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'a word on a line ends the entry gathered before it',
    text: 'Asha 98765 43210\nRavi +91 91234 56780\n98765 Kiran 43210',
    numbers: ['9876543210', '919123456780'],
    invalid: ['98765', '43210'],
    ignored: 3,
    duplicates: 0,
  },
  {
    name: 'dashes between spaced pieces',
    text: '987 - 654 - 3210\n- 9123456780',
    numbers: ['9123456780', '9876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 0,
  },
  {
    name: 'the same number written four ways counts once',
    text: '+91 98765 43210\n+919876543210\n91 98765-43210\n(91) 98765 43210',
    numbers: ['919876543210'],
    invalid: [],
    ignored: 0,
    duplicates: 3,
  },
];
