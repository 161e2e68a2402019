import { describe, expect, it } from 'vitest';
import { recipientKeysToStrings } from '@herald/contract';
import { parseXlsxBytes, scanSharedStrings } from './scan-xlsx';
import { MAX_UNCOMPRESSED_BYTES, UnreadableFileError } from './zip';
import { writeXlsx, writeZip } from '../../../../test/zip-fixture';

const enc = new TextEncoder();
const sorted = (a: string[]) => [...a].sort();

describe('parseXlsxBytes', () => {
  it('reads numeric, shared-string and inline cells across sheets', async () => {
    const xlsx = await writeXlsx([
      [
        ['phone', 'name'],
        [9876543210, 'Asha'],
        ['0987654321', '+91 98765 43210'],
        [{ inline: '(123) 456-7890' }, 123],
        ['9876543210', { inline: 'call me' }],
      ],
      [[9.5], ['000000000000000'], [1234567890123456]],
    ]);
    const got = await parseXlsxBytes(xlsx);
    expect(sorted(recipientKeysToStrings(got.keys))).toEqual(
      sorted(['9876543210', '0987654321', '919876543210', '1234567890', '000000000000000']),
    );
    // Not numbers: phone, name, Asha, 'call me'; invalid: 123, 9.5, 1234567890123456.
    expect(got.ignored).toBe(4);
    expect(got.invalid).toBe(3);
    // Listed as written, in the order read, with their digit counts (9.5: not whole).
    expect(got.invalidEntries).toEqual(['123', '9.5', '1234567890123456']);
    expect(got.invalidDigits).toEqual([3, 0, 16]);
    expect(got.duplicates).toBe(1);
  });

  it('reads numbers written in E notation and rich-text shared strings', async () => {
    const sheet =
      '<worksheet><sheetData><row r="1"><c r="A1"><v>9.87654321E+9</v></c><c r="B1" t="n"><f>A1</f><v>1234567</v></c>' +
      '<c r="C1" t="s"><v>0</v></c><c r="D1" t="s"><v>1</v></c><c r="E1" t="b"><v>1</v></c><c r="F1" s="2"/>' +
      // Java's Double.toString form, which Apache POI writes for numbers from 1e7 up.
      '<c r="G1" t="n"><v>9.1987654321E11</v></c><c r="H1"><v>1.0E7</v></c></row></sheetData></worksheet>';
    const sst =
      '<sst><si><r><rPr><b/></rPr><t>+44 </t></r><r><t xml:space="preserve">20 7946 0018</t></r></si><si><t/></si></sst>';
    const xlsx = await writeZip([
      { name: 'xl/sharedStrings.xml', data: enc.encode(sst) },
      { name: 'xl/worksheets/sheet1.xml', data: enc.encode(sheet) },
    ]);
    const got = await parseXlsxBytes(xlsx);
    expect(sorted(recipientKeysToStrings(got.keys))).toEqual([
      '10000000',
      '1234567',
      '442079460018',
      '919876543210',
      '9876543210',
    ]);
    // The boolean E1 is not a number; nothing is an invalid number.
    expect(got.ignored).toBe(1);
    expect(got.invalid).toBe(0);
  });

  it('maps shared strings to keys, invalid, empty and not a number', () => {
    const invalid = new Map();
    const sst = scanSharedStrings(
      enc.encode(
        '<sst><si><t>9876543210</t></si><si><r><t>123</t></r><r><t xml:space="preserve"> 45</t></r></si><si><t></t></si><si><t>x</t></si></sst>',
      ),
      invalid,
    );
    expect(Array.from(sst).slice(1)).toEqual([-1, -2, -3]);
    // The invalid one's text, as written across its rich-text runs, for the form's list.
    expect([...invalid]).toEqual([[1, { text: '123 45', digits: 5 }]]);
    expect(recipientKeysToStrings(sst.subarray(0, 1))).toEqual(['9876543210']);
  });

  it('refuses a zip bomb from the central directory sizes', async () => {
    const bomb = await writeZip([
      {
        name: 'xl/worksheets/sheet1.xml',
        data: enc.encode('<worksheet/>'),
        declaredSize: MAX_UNCOMPRESSED_BYTES + 1,
      },
    ]);
    await expect(parseXlsxBytes(bomb)).rejects.toBeInstanceOf(UnreadableFileError);
  });

  it('refuses an entry that inflates past its declared size', async () => {
    const liar = await writeZip([
      { name: 'xl/worksheets/sheet1.xml', data: new Uint8Array(100_000), declaredSize: 10 },
    ]);
    await expect(parseXlsxBytes(liar)).rejects.toBeInstanceOf(UnreadableFileError);
  });

  it('refuses bytes that are not a zip', async () => {
    await expect(parseXlsxBytes(enc.encode('phone\n9876543210\n'))).rejects.toBeInstanceOf(
      UnreadableFileError,
    );
  });

  it('parses 1,000,000 rows with the right counts', { timeout: 60_000 }, async () => {
    const rows: (number | string)[][] = [['phone']];
    for (let i = 0; i < 1_000_000; i++) {
      const n = 9_000_000_000 + ((i * 7919) % 900_000);
      rows.push([i % 10 === 0 ? String(n) : n]);
    }
    const got = await parseXlsxBytes(await writeXlsx([rows]));
    expect(got.kept).toBe(900_000);
    expect(got.duplicates).toBe(100_000);
    expect(got.ignored).toBe(1); // the header
    expect(got.invalid).toBe(0);
  });
});
