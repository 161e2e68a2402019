import { normalizeRecipient, REPORT_NUMBER_HEADERS, REPORT_STATUS_HEADER } from '@herald/contract';

/**
 * Delivery-report CSV (decisions.md sections 4 and 7): a streaming RFC 4180 reader (quoted
 * fields with "" escapes, commas and line breaks inside quotes, CRLF, LF or CR line ends; the
 * BOM is dropped by the UTF-8 decoder before text gets here), the column detection, and the
 * cell writer of the CSV export.
 */

/** The text is not a CSV file we can read. */
export class CsvError extends Error {}

/** No sane report cell is longer; a longer one means the file is not a report. */
export const CSV_CELL_MAX = 10_000;

const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_IN_QUOTED = 3;
const SPECIAL = /[,"\r\n]/g;

/** Feeds decoded text in chunks of any size; calls `onRow` with each complete row's cells. */
export class CsvReader {
  private state = FIELD_START;
  private field = '';
  private cells: string[] = [];
  private pendingCr = false;

  constructor(private readonly onRow: (cells: string[]) => void) {}

  push(text: string): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (this.state === QUOTED) {
        const q = text.indexOf('"', i);
        const end = q < 0 ? n : q;
        this.append(text.slice(i, end));
        if (q < 0) return;
        i = q + 1;
        this.state = QUOTE_IN_QUOTED;
        continue;
      }
      if (this.state === QUOTE_IN_QUOTED) {
        if (text[i] === '"') {
          this.append('"');
          i++;
          this.state = QUOTED;
          continue;
        }
        // The closing quote; anything up to the next separator is kept as written.
        this.state = UNQUOTED;
      }
      if (this.pendingCr) {
        this.pendingCr = false;
        if (text[i] === '\n') {
          i++;
          continue;
        }
      }
      if (this.state === FIELD_START && text[i] === '"') {
        this.state = QUOTED;
        i++;
        continue;
      }
      SPECIAL.lastIndex = i;
      const match = SPECIAL.exec(text);
      const j = match ? match.index : n;
      this.append(text.slice(i, j));
      this.state = UNQUOTED;
      if (!match) return;
      const c = text[j];
      i = j + 1;
      if (c === '"') {
        // A stray quote inside an unquoted field is kept as a character.
        this.append('"');
      } else if (c === ',') {
        this.endField();
      } else {
        this.endField();
        this.endRow();
        if (c === '\r') {
          if (i >= n) this.pendingCr = true;
          else if (text[i] === '\n') i++;
        }
      }
    }
  }

  /** The end of the text: the last row needs no line break; an open quote is an error. */
  end(): void {
    if (this.state === QUOTED) throw new CsvError('unterminated quoted field');
    if (this.state !== FIELD_START || this.cells.length > 0) {
      this.endField();
      this.endRow();
    }
  }

  private append(part: string): void {
    if (part.length === 0) return;
    this.field += part;
    if (this.field.length > CSV_CELL_MAX) throw new CsvError('cell too long');
  }

  private endField(): void {
    this.cells.push(this.field);
    this.field = '';
    this.state = FIELD_START;
  }

  private endRow(): void {
    const cells = this.cells;
    this.cells = [];
    this.state = FIELD_START;
    this.onRow(cells);
  }
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
 * Column detection (decisions.md section 4). The first non-blank row is a header unless one
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
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV cell for an export: formula injection neutralised, quoted per RFC 4180. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
