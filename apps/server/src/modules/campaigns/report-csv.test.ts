import { describe, expect, it } from 'vitest';
import {
  CsvError,
  CsvReader,
  CSV_CELL_MAX,
  csvCell,
  detectColumns,
  headerMatches,
  isBlankRow,
} from './report-csv.js';

/** Parses `text` fed in chunks of `size` characters (every split point is exercised). */
function parse(text: string, size = text.length || 1): string[][] {
  const rows: string[][] = [];
  const reader = new CsvReader((cells) => rows.push(cells));
  for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
  reader.end();
  return rows;
}

describe('CsvReader (RFC 4180)', () => {
  const cases: [string, string[][]][] = [
    [
      'a,b\r\nc,d\r\n',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    [
      'a,b\nc,d',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    [
      'a,b\rc,d\r',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    ['"a,1","say ""hi"""\n', [['a,1', 'say "hi"']]],
    ['"line\r\nbreak",x\n', [['line\r\nbreak', 'x']]],
    ['a,,\n', [['a', '', '']]],
    ['a\n\nb\n', [['a'], [''], ['b']]],
    ['"",x', [['', 'x']]],
    ['ab"c,d', [['ab"c', 'd']]],
    ['', []],
  ];
  it.each(cases)('%j', (text, rows) => {
    for (const size of [1, 2, 3, 7, 1000]) expect(parse(text, size)).toEqual(rows);
  });

  it('refuses an unterminated quote and an absurdly long cell', () => {
    expect(() => parse('"abc\n')).toThrow(CsvError);
    expect(() => parse('x'.repeat(CSV_CELL_MAX + 1))).toThrow(CsvError);
  });

  it('blank rows are recognised', () => {
    expect(isBlankRow([''])).toBe(true);
    expect(isBlankRow([' ', ''])).toBe(true);
    expect(isBlankRow(['', 'x'])).toBe(false);
  });
});

describe('column detection (decisions.md section 4)', () => {
  it('matches whole words, any case, plural, snake and camel case', () => {
    for (const h of [
      'Number',
      ' MOBILE ',
      'Mobile No',
      'phone_number',
      'RecipientNumber',
      'Numbers',
      'To',
    ]) {
      expect(
        ['number', 'mobile', 'phone', 'recipient', 'to'].some((w) => headerMatches(h, w)),
      ).toBe(true);
    }
    expect(headerMatches('Total', 'to')).toBe(false);
    expect(headerMatches('Photo ID', 'phone')).toBe(false);
    expect(headerMatches('Delivery Status', 'status')).toBe(true);
    expect(headerMatches('Statuses', 'status')).toBe(true);
  });

  it('number: first matching header, else the first column; status likewise, else the second', () => {
    expect(detectColumns(['Status', 'Mobile'])).toEqual({ hasHeader: true, number: 1, status: 0 });
    expect(detectColumns(['id', 'phone', 'to', 'state'])).toMatchObject({ number: 1, status: 0 });
    expect(detectColumns(['name', 'msisdn', 'result'])).toMatchObject({ number: 0, status: 1 });
    expect(detectColumns(['id', 'Delivery status', 'Recipient'])).toMatchObject({
      number: 2,
      status: 1,
    });
  });

  it('a first row holding a phone number is data, not a header', () => {
    expect(detectColumns(['+91 98765 43210', 'Delivered'])).toEqual({
      hasHeader: false,
      number: 0,
      status: 1,
    });
  });
});

describe('csvCell', () => {
  it('neutralises formulas and quotes per RFC 4180', () => {
    expect(csvCell('Delivered')).toBe('Delivered');
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    for (const start of ['+', '-', '@', '\t', '\r', '\0']) {
      expect(csvCell(`${start}1`).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });
});
