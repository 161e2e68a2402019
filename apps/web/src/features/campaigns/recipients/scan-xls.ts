/**
 * .xls (BIFF) through SheetJS (@e965/xlsx, the maintained 0.20.x build; never the npm `xlsx`
 * package), imported only when an .xls is chosen. Every sheet is read (a sheet holds at most
 * 65,536 rows, so 1M numbers span 16+ sheets); each cell is one token under the file rule.
 */
import type * as Xlsx from '@e965/xlsx';
import { finish, KeySink, type ScanResult } from './keys';
import { UnreadableFileError } from './zip';

/** Thrown when the spreadsheet library cannot be loaded. */
export class ParserUnavailableError extends Error {}

const CELL_SPACE = /[\s"]/;

/** One cell's text under the file rule of scan-text.ts's scanCsv (spaces and quotes removed). */
export function cellString(s: string, sink: KeySink): void {
  let digits = 0;
  let value = 0;
  let bad = false;
  let some = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      value = value * 10 + (c - 0x30);
      digits++;
      some = true;
    } else if (c === 0x2b || c === 0x2d || c === 0x28 || c === 0x29 || c === 0x2e) {
      some = true;
    } else if (!CELL_SPACE.test(s.charAt(i))) {
      some = true;
      bad = true;
    }
  }
  if (some && !sink.token(digits, value, bad)) sink.invalidEntry(s.trim(), digits);
}

export async function parseXlsBytes(bytes: Uint8Array): Promise<ScanResult> {
  let XLSX: typeof Xlsx;
  try {
    XLSX = await import('@e965/xlsx');
  } catch {
    throw new ParserUnavailableError('spreadsheet library did not load');
  }
  let book: ReturnType<typeof XLSX.read>;
  try {
    book = XLSX.read(bytes, { type: 'array', dense: true, cellDates: false, cellHTML: false });
  } catch {
    throw new UnreadableFileError('not a spreadsheet');
  }
  const sink = new KeySink(bytes.length >>> 4);
  for (const name of book.SheetNames) {
    const rows = book.Sheets[name]?.['!data'];
    if (!rows) continue;
    for (const row of rows) {
      if (!row) continue;
      for (const cell of row) {
        if (!cell || cell.t === 'z' || cell.v === undefined || cell.v === null) continue;
        if (cell.t === 'n' && typeof cell.v === 'number') sink.number(cell.v);
        else if (cell.t === 's' && typeof cell.v === 'string') cellString(cell.v, sink);
        else sink.ignored++; // a boolean or an error: not a number
      }
    }
  }
  return finish(sink);
}
