import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError as ParseError, parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { normalizeRecipient, REPORT_NUMBER_HEADERS, REPORT_STATUS_HEADER } from '@herald/contract';

/**
 * Delivery-report CSV (docs/product.md, Campaigns): the rows of an uploaded report, read by
 * csv-parse as the file streams (RFC 4180 quoting, CRLF, LF or CR line ends, a BOM dropped,
 * rows of any length), the column detection, and the export's CSV text by csv-stringify with
 * formula injection neutralised.
 */

/** The bytes are not a CSV file we can read. */
export class CsvError extends Error {}

/** No sane report row is longer; a longer one means the file is not a report. */
export const CSV_RECORD_MAX = 10_000;

/**
 * Each row's cells, as the file streams. Bytes that are not UTF-8, a NUL byte (a spreadsheet,
 * an image), an unterminated quote or an over-long row throw CsvError. Empty lines are skipped;
 * a quote inside an unquoted cell is kept as a character.
 */
export async function* csvRows(source: Readable): AsyncGenerator<string[]> {
  const parser = parse({
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_empty_lines: true,
    max_record_size: CSV_RECORD_MAX,
  });
  const done = pipeline(source, utf8Only(), parser);
  done.catch(() => {}); // a failure reaches the loop below through the parser
  try {
    for await (const cells of parser) yield cells as string[];
    await done;
  } catch (err) {
    if (err instanceof ParseError) throw new CsvError(err.message);
    throw err;
  } finally {
    source.destroy();
  }
}

/** Passes bytes through unchanged once they are known to be UTF-8 text without NUL. */
function utf8Only(): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const check = (chunk?: Buffer) => {
    try {
      if (chunk) decoder.decode(chunk, { stream: true });
      else decoder.decode();
    } catch {
      throw new CsvError('not UTF-8 text');
    }
    if (chunk?.includes(0)) throw new CsvError('NUL byte');
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      try {
        check(chunk);
        callback(null, chunk);
      } catch (err) {
        callback(err as Error);
      }
    },
    flush(callback) {
      try {
        check();
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
  });
}

/** A row with nothing but blanks (an empty line, or only commas) carries no data. */
export function isBlankRow(cells: readonly string[]): boolean {
  return cells.every((c) => c.trim() === '');
}

/**
 * A header "matches" a word when one of its words is that word or its plural: headers are
 * split at anything but letters and digits and at camelCase humps, case ignored; plurals
 * take -s or -es. So "Mobile No", "phone_number", "RecipientNumber" and "Numbers" match,
 * while "Total" does not match "to" and "Photo ID" does not match "phone".
 */
export function headerMatches(header: string, word: string): boolean {
  const words = header
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  return words.some((w) => w === word || w === `${word}s` || w === `${word}es`);
}

export interface ReportColumns {
  /** True when the first row is a header (it is then not data). */
  hasHeader: boolean;
  number: number;
  status: number;
}

/**
 * Column detection (docs/product.md, Campaigns). The first non-blank row is a header unless one
 * of its cells is already a phone number (a file without a header). Number column: the first
 * header matching number/mobile/phone/recipient/to, else the first column. Status column: the
 * first other header matching status, else the second column (the first when the number
 * column is the second).
 */
export function detectColumns(firstRow: readonly string[]): ReportColumns {
  const hasHeader = !firstRow.some((cell) => normalizeRecipient(cell.trim()) !== null);
  const fallbackStatus = (numberCol: number) => (numberCol === 1 ? 0 : 1);
  if (!hasHeader) return { hasHeader, number: 0, status: 1 };
  let number = firstRow.findIndex((h) => REPORT_NUMBER_HEADERS.some((w) => headerMatches(h, w)));
  if (number < 0) number = 0;
  let status = firstRow.findIndex((h, i) => i !== number && headerMatches(h, REPORT_STATUS_HEADER));
  if (status < 0) status = fallbackStatus(number);
  return { hasHeader, number, status };
}

// A cell starting with = + - @ tab, CR or NUL would run as a formula in a spreadsheet.
const FORMULA_START = /^[=+\-@\t\r\u0000]/; // eslint-disable-line no-control-regex

/** Rows as CSV text for an export: formula injection neutralised, quoted per RFC 4180, CRLF. */
export function csvText(rows: readonly (readonly string[])[]): string {
  return stringify(rows as string[][], {
    record_delimiter: 'windows',
    quote_record_delimiter: true,
    cast: { string: (value) => (FORMULA_START.test(value) ? `'${value}` : value) },
  });
}
