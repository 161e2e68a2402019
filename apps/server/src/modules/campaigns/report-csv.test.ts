import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  CsvError,
  CSV_RECORD_MAX,
  csvRows,
  csvText,
  detectColumns,
  headerMatches,
  isBlankRow,
} from './report-csv.js';

/** Parses `bytes` streamed in chunks of `size` bytes (every split point is exercised). */
async function parse(bytes: string | Buffer, size = bytes.length || 1): Promise<string[][]> {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) chunks.push(buf.subarray(i, i + size));
  const rows: string[][] = [];
  for await (const cells of csvRows(Readable.from(chunks))) rows.push(cells);
  return rows;
}

describe('csvRows (RFC 4180, by csv-parse)', () => {
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
    ['a\r\nb\nc\rd', [['a'], ['b'], ['c'], ['d']]],
    ['"a,1","say ""hi"""\n', [['a,1', 'say "hi"']]],
    ['"line\r\nbreak",x\n', [['line\r\nbreak', 'x']]],
    ['a,,\n', [['a', '', '']]],
    ['a\n\nb\n', [['a'], ['b']]],
    ['"",x', [['', 'x']]],
    ['ab"c,d', [['ab"c', 'd']]],
    [
      'number,status\n1,Delivered,extra\n2\n',
      [['number', 'status'], ['1', 'Delivered', 'extra'], ['2']],
    ],
    ['\ufeffMobile,Status\n', [['Mobile', 'Status']]],
    ['ünï,😀\n', [['ünï', '😀']]],
    ['', []],
  ];
  it.each(cases)('%j', async (text, rows) => {
    for (const size of [1, 2, 3, 7, 1000]) expect(await parse(text, size)).toEqual(rows);
  });

  it('refuses an unterminated quote, an absurdly long row, bytes that are not UTF-8 and NUL', async () => {
    await expect(parse('"abc\n')).rejects.toThrow(CsvError);
    await expect(parse(`a,${'x'.repeat(CSV_RECORD_MAX * 2)}\nb\n`)).rejects.toThrow(CsvError);
    await expect(parse(Buffer.from([0x61, 0x2c, 0xff, 0xfe, 0x0a]))).rejects.toThrow(CsvError);
    await expect(parse(Buffer.from([0x61, 0x2c, 0x00, 0x0a]), 1)).rejects.toThrow(CsvError);
    await expect(parse(Buffer.from([0x61, 0x2c, 0xc3]), 1)).rejects.toThrow(CsvError);
  });

  it('blank rows are recognised', () => {
    expect(isBlankRow([''])).toBe(true);
    expect(isBlankRow([' ', ''])).toBe(true);
    expect(isBlankRow(['', 'x'])).toBe(false);
  });
});

describe('column detection', () => {
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

describe('csvText', () => {
  it('neutralises formulas and quotes per RFC 4180, lines ending in CRLF', () => {
    const cell = (value: string) => csvText([[value]]).replace(/\r\n$/, '');
    expect(cell('Delivered')).toBe('Delivered');
    expect(cell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    for (const start of ['+', '-', '@', '\t', '\r', '\0']) {
      expect(cell(`${start}1`).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(cell('a,b')).toBe('"a,b"');
    expect(cell('two\nlines')).toBe('"two\nlines"');
    expect(cell('a=b')).toBe('a=b');
    expect(
      csvText([
        ['recipient', 'status'],
        ['9876543210', 'Delivered'],
      ]),
    ).toBe('recipient,status\r\n9876543210,Delivered\r\n');
  });
});
