import { describe, expect, it } from 'vitest';
import { recipientKeysToStrings } from '@herald/contract';
import * as XLSX from '@e965/xlsx';
import { parseXlsBytes } from './scan-xls';
import { UnreadableFileError } from './zip';

const sorted = (a: string[]) => [...a].sort();

function writeXls(sheets: (string | number)[][][]): Uint8Array {
  const book = XLSX.utils.book_new();
  sheets.forEach((rows, i) =>
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), `S${i + 1}`),
  );
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'biff8' }) as ArrayBuffer);
}

describe('parseXlsBytes', () => {
  it('reads every sheet, numeric and text cells', async () => {
    const xls = writeXls([
      [
        ['phone', 'name'],
        [9876543210, 'Asha'],
        ['0987654321', '+91 98765 43210'],
      ],
      [[9876543210], [12.5], ['(123) 456-7890']],
    ]);
    const got = await parseXlsBytes(xls);
    expect(sorted(recipientKeysToStrings(got.keys))).toEqual(
      sorted(['9876543210', '0987654321', '919876543210', '1234567890']),
    );
    // phone, name, Asha are not numbers; 12.5 is an invalid number.
    expect(got.ignored).toBe(3);
    expect(got.invalid).toBe(1);
    expect([got.invalidEntries, got.invalidDigits]).toEqual([['12.5'], [0]]);
    expect(got.duplicates).toBe(1);
  });

  it('reads 40,000 numbers across two sheets', { timeout: 60_000 }, async () => {
    const a: number[][] = [];
    const b: number[][] = [];
    for (let i = 0; i < 20_000; i++) {
      a.push([9_000_000_000 + i]);
      b.push([9_000_018_000 + i]);
    }
    const got = await parseXlsBytes(writeXls([a, b]));
    expect(got.kept).toBe(38_000);
    expect(got.duplicates).toBe(2_000);
  });

  it('refuses garbage', async () => {
    const truncated = writeXls([[[9876543210]]]).subarray(0, 700);
    await expect(parseXlsBytes(truncated)).rejects.toBeInstanceOf(UnreadableFileError);
  });
});
