/**
 * The recipients reader on workbooks written by other programs: LibreOffice and XlsxWriter
 * files committed under apps/web/test/fixtures/recipients (its README says how each was
 * made), and SheetJS workbooks written here. A file contributes every cell of every sheet
 * (only its all-digit cells count, after the rules of docs/product.md, How numbers are read).
 */
import { describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { recipientKeysToStrings } from '@herald/contract';
import { readFixture } from '../../../../test/read-fixture';
import type { ScanResult } from './keys';
import { parseXlsBytes } from './scan-xls';
import { parseXlsxBytes } from './scan-xlsx';
import { inflateEntry, readCentralDirectory } from './zip';

/** What the form shows for a file: the numbers kept (sorted as strings) and the counts. */
const found = (r: ScanResult) => ({
  numbers: recipientKeysToStrings(r.keys).sort(),
  invalid: r.invalid,
  ignored: r.ignored,
  duplicates: r.duplicates,
});

/** An entry of an .xlsx as text, to show which XML a writer produced. */
async function entryText(xlsx: Uint8Array, name: string): Promise<string | null> {
  const entry = readCentralDirectory(xlsx).find((e) => e.name === name);
  return entry ? new TextDecoder().decode(await inflateEntry(xlsx, entry)) : null;
}

const fixture = (name: string) => readFixture(`recipients/${name}`);

describe('workbooks saved by LibreOffice', () => {
  it('reads a CSV list converted to .xlsx', async () => {
    const xlsx = await fixture('libreoffice-list.xlsx');
    expect(found(await parseXlsxBytes(xlsx))).toEqual({
      // The CSV's 0987654321 was imported as the number 987654321: 9 digits, still kept.
      numbers: ['1234567890', '919876543210', '987654321', '9876543210'],
      // Not numbers: the header (Mobile, Name) and the names Asha, Ravi, Li, Zero, 'Asha
      // again', Short; invalid: 12345 (5 digits).
      ignored: 8,
      invalid: 1,
      duplicates: 1,
    });
  });

  const mixed = {
    numbers: ['0987654321', '442079460018', '7012345678', '919876543210', '9876543210'],
    // Not numbers: the headers Phone, Name, Mobile and the names Asha, Zero.
    ignored: 5,
    // Invalid digit strings: 12.5, 1234567890123460 (16 digits), TRUE (stored as the number 1).
    invalid: 3,
    // The formula =A3, the text formula ="98765"&"43210", and '9876543210' on the second sheet.
    duplicates: 3,
  };

  it('reads both sheets of an .xlsx: empty first rows, text headers, numbers as numbers and as text', async () => {
    const xlsx = await fixture('libreoffice-mixed.xlsx');
    const sheet = await entryText(xlsx, 'xl/worksheets/sheet1.xml');
    // What this file exercises: no row 1, shared strings, a numeric cell, a text formula.
    expect(sheet).not.toContain('<row r="1"');
    expect(sheet).toContain('<c r="A4" s="0" t="s">');
    expect(sheet).toContain('<c r="A5" s="0" t="n"><v>919876543210</v></c>');
    expect(sheet).toContain('t="str"><f aca="false">');
    expect(found(await parseXlsxBytes(xlsx))).toEqual(mixed);
  });

  it('reads the same workbook saved as .xls', async () => {
    // LibreOffice's .xls caches the number 0 as the text formula's result (no STRING record
    // follows its FORMULA record), so that cell is invalid there rather than a duplicate.
    expect(found(await parseXlsBytes(await fixture('libreoffice-mixed.xls')))).toEqual({
      ...mixed,
      invalid: mixed.invalid + 1,
      duplicates: mixed.duplicates - 1,
    });
  });
});

describe('a workbook streamed by XlsxWriter', () => {
  it('reads inline strings without a shared strings part', async () => {
    const xlsx = await fixture('xlsxwriter-inline.xlsx');
    expect(await entryText(xlsx, 'xl/sharedStrings.xml')).toBeNull();
    const sheet = await entryText(xlsx, 'xl/worksheets/sheet1.xml');
    expect(sheet).toContain('<c r="A4" t="inlineStr"><is><t>0987654321</t></is></c>');
    expect(await entryText(xlsx, 'xl/worksheets/sheet2.xml')).toContain('<v>1.5E+20</v>');
    expect(found(await parseXlsxBytes(xlsx))).toEqual({
      numbers: ['0987654321', '12025550147', '7012345678', '919876543210', '9876543210'],
      // Not numbers: Phone, n/a; invalid: 1.5E+20 (21 digits).
      ignored: 2,
      invalid: 1,
      duplicates: 1,
    });
  });
});

describe('workbooks written by SheetJS', () => {
  const rows = [
    [[], ['Phone', 'Name'], [9876543210, 'Asha'], ['0987654321', '+91-98765-43210']],
    [[], [919876543210], [1234567890123456], [1e21], ['9876543210'], [7.5]],
  ];
  const write = (bookSST: boolean) => {
    const book = XLSX.utils.book_new();
    rows.forEach((sheet, i) =>
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(sheet), `Sheet${i + 1}`),
    );
    const out = XLSX.write(book, { type: 'array', bookType: 'xlsx', bookSST }) as ArrayBuffer;
    return new Uint8Array(out);
  };
  const expected = {
    numbers: ['0987654321', '919876543210', '9876543210'],
    // Not numbers: Phone, Name, Asha; invalid: 1234567890123456 (16 digits), 1e21, 7.5.
    ignored: 3,
    invalid: 3,
    // +91-98765-43210 is 919876543210, like the number on the second sheet; '9876543210' too.
    duplicates: 2,
  };

  it('reads shared strings (bookSST)', async () => {
    const xlsx = write(true);
    expect(await entryText(xlsx, 'xl/sharedStrings.xml')).toContain('<t>0987654321</t>');
    expect(await entryText(xlsx, 'xl/worksheets/sheet2.xml')).toContain('<v>1e+21</v>');
    expect(found(await parseXlsxBytes(xlsx))).toEqual(expected);
  });

  it('reads text written in the cell (t="str")', async () => {
    const xlsx = write(false);
    const sheet = await entryText(xlsx, 'xl/worksheets/sheet1.xml');
    expect(sheet).toContain('t="str"><v>0987654321</v>');
    expect(found(await parseXlsxBytes(xlsx))).toEqual(expected);
  });
});

describe('the own reader against SheetJS', () => {
  it('finds what SheetJS finds in every .xlsx', async () => {
    const files = ['libreoffice-list.xlsx', 'libreoffice-mixed.xlsx', 'xlsxwriter-inline.xlsx'];
    for (const name of files) {
      const xlsx = await fixture(name);
      expect(found(await parseXlsxBytes(xlsx)), name).toEqual(found(await parseXlsBytes(xlsx)));
    }
  });
});
