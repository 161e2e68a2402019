import { CsvError as ParseError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { normalizeRecipient, SUPPRESSION_IMPORT_MAX_ROWS } from '@herald/contract';

/**
 * The suppression list's CSV (docs/product.md, Opt-outs). An import is read whole before
 * anything is written (its size is bounded by SUPPRESSION_IMPORT_MAX_BYTES), so a malformed file
 * imports nothing. csv-parse reads what spreadsheets write: a BOM, CRLF, LF or CR line ends,
 * quoted cells, rows of any length. One number per row, or a column whose header names it.
 */

/** The file is not CSV text we can read (not UTF-8, a NUL byte, an unterminated quote). */
export class MalformedCsv extends Error {}
/** More data rows than SUPPRESSION_IMPORT_MAX_ROWS. */
export class TooManyRows extends Error {}

export interface ReadNumbers {
  /** Each valid number once, in the file's order. */
  phones: string[];
  /** Valid numbers repeated within the file. */
  repeated: number;
  /** Rows whose cell is not a 7 to 15 digit number. */
  invalid: number;
}

/** Headers that name the number column (a word of the header, any case). */
const NUMBER_HEADERS = ['phone', 'number', 'mobile', 'msisdn', 'recipient'];

function isNumberHeader(cell: string): boolean {
  const words = cell.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return words.some((w) => NUMBER_HEADERS.some((h) => w === h || w === `${h}s`));
}

function rowsOf(bytes: Buffer): string[][] {
  let textOf: string;
  try {
    textOf = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new MalformedCsv('not UTF-8 text');
  }
  if (textOf.includes('\0')) throw new MalformedCsv('NUL byte');
  try {
    return parse(textOf, {
      bom: true,
      relax_column_count: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      skip_empty_lines: true,
      max_record_size: 10_000,
    });
  } catch (err) {
    if (err instanceof ParseError) throw new MalformedCsv(err.message);
    throw err;
  }
}

/**
 * The numbers of an import file. The first row is a header unless one of its cells is already a
 * number; the number column is the first header naming it (phone, number, mobile, …), else the
 * first column.
 */
export function readNumbers(bytes: Buffer): ReadNumbers {
  const rows = rowsOf(bytes).filter((r) => r.some((c) => c.trim() !== ''));
  const first = rows[0] ?? [];
  const hasHeader = !first.some((c) => normalizeRecipient(c) !== null);
  const column = hasHeader ? Math.max(0, first.findIndex(isNumberHeader)) : 0;
  const data = hasHeader ? rows.slice(1) : rows;
  if (data.length > SUPPRESSION_IMPORT_MAX_ROWS) throw new TooManyRows();
  const seen = new Set<string>();
  let repeated = 0;
  let invalid = 0;
  for (const row of data) {
    const phone = normalizeRecipient(row[column] ?? '');
    if (phone === null) invalid++;
    else if (seen.has(phone)) repeated++;
    else seen.add(phone);
  }
  return { phones: [...seen], repeated, invalid };
}

/** The export's header; `phone` first, so the file imports again as it is. */
export const EXPORT_HEADER = ['phone', 'source', 'created_at', 'owner_email'] as const;

// A cell starting with = + - @ tab, CR or NUL would run as a formula in a spreadsheet.
const FORMULA_START = /^[=+\-@\t\r\u0000]/; // eslint-disable-line no-control-regex

/** Rows as CSV text, CRLF, quoted per RFC 4180, formula injection neutralised. */
export function csvText(rows: readonly (readonly string[])[]): string {
  return stringify(rows as string[][], {
    record_delimiter: 'windows',
    cast: { string: (value) => (FORMULA_START.test(value) ? `'${value}` : value) },
  });
}
