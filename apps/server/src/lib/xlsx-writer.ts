import type { Writable } from 'node:stream';
import {
  FROZEN_HEADER,
  SheetNames,
  sheetPath,
  STYLE,
  workbookParts,
  WORKSHEET_OPEN,
} from './xlsx-parts.js';
import { cellText, escapeXml } from './xlsx-text.js';
import { ZipStream, type ZipEntrySink } from './zip-stream.js';

/**
 * A small streaming XLSX (OOXML spreadsheet) writer: inline strings, numbers, date cells, a bold
 * header style, one or more sheets written one after another. Rows are turned into XML and
 * deflated as they come (the package is a zip written by zip-stream.ts), so a sheet of a million
 * rows needs no more memory than a few rows.
 *
 * Text is made safe twice: characters XML 1.0 forbids are dropped and the rest escaped, and
 * (unless turned off) a cell starting with = + - @ tab, CR or NUL gets a leading `'`, so a
 * spreadsheet never runs it as a formula (docs/product.md, Decisions).
 */

/** A Date is written as the wall-clock time of its UTC fields: shift it to the reader's zone. */
export type XlsxCell = string | number | Date | null | undefined;
export type XlsxRowStyle = 'bold';

export interface XlsxColumn {
  /** Width in characters. */
  width?: number;
  /** How numbers in this column show: `money` is #,##0.00. */
  format?: 'money';
}

export interface XlsxSheetOptions {
  columns?: readonly XlsxColumn[];
  /** Keeps the first row in view while scrolling. */
  freezeHeader?: boolean;
  /** Deflate level of the sheet's part (1 is fastest; zlib's default otherwise). */
  compressionLevel?: number;
  /** How much of the sheet may wait for deflate before writes wait (zip-stream.ts). */
  bufferBytes?: number;
}

export const XLSX_MAX_ROWS = 1_048_576;
export const XLSX_MAX_TEXT = 32_767;
const FLUSH_AT = 64 * 1024;
export const MS_PER_DAY = 86_400_000;
export const EXCEL_EPOCH_DAYS = 25_569; // 1970-01-01 as an Excel serial day

export { escapeXml, cellText } from './xlsx-text.js';

/** Column letters for a zero-based index: 0 → A, 26 → AA. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

export class XlsxWriter {
  private readonly zip: ZipStream;
  private readonly sheets = new SheetNames();
  private readonly letters: string[] = [];
  private sink: ZipEntrySink | null = null;
  private buffer = '';
  private rows = 0;
  private formats: readonly XlsxColumn[] = [];

  constructor(
    out: Writable,
    private readonly options: { neutraliseFormulas?: boolean } = {},
  ) {
    this.zip = new ZipStream(out);
  }

  /** Rows written to the current sheet so far. */
  get rowsInSheet(): number {
    return this.rows;
  }

  /** Ends the current sheet, if any, and starts a new one. Names are made valid and unique. */
  async addSheet(name: string, options: XlsxSheetOptions = {}): Promise<string> {
    if (this.sink) await this.endSheet();
    const sheetName = this.sheets.add(name);
    const { compressionLevel, bufferBytes } = options;
    this.sink = this.zip.openEntry(sheetPath(this.sheets.names.length), {
      ...(compressionLevel === undefined ? {} : { compressionLevel }),
      ...(bufferBytes === undefined ? {} : { bufferBytes }),
    });
    this.rows = 0;
    this.formats = options.columns ?? [];
    let head = WORKSHEET_OPEN;
    if (options.freezeHeader) head += FROZEN_HEADER;
    const widths = this.formats.flatMap((c, i) =>
      c.width ? [`<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`] : [],
    );
    if (widths.length > 0) head += `<cols>${widths.join('')}</cols>`;
    this.buffer = `${head}<sheetData>`;
    return sheetName;
  }

  /** Appends a row to the current sheet; empty cells (null, undefined, '') are left out. */
  async addRow(cells: readonly XlsxCell[], style?: XlsxRowStyle): Promise<void> {
    if (!this.sink) throw new Error('Add a sheet before its rows.');
    if (this.rows >= XLSX_MAX_ROWS) throw new Error('A sheet holds at most 1,048,576 rows.');
    const r = ++this.rows;
    let xml = `<row r="${r}">`;
    for (let i = 0; i < cells.length; i++) xml += this.cell(cells[i], i, r, style);
    this.buffer += `${xml}</row>`;
    if (this.buffer.length >= FLUSH_AT) await this.flush();
  }

  /**
   * Appends `rows` rows given as XML already (`<row>` elements, cells without `r` references or
   * with the right ones), made safe by the caller as `addRow` would: the backup's sheets, whose
   * XML its worker thread makes (modules/backup/copy-worker.ts). A piece may end or start inside
   * a row; `rows` counts the rows it ends.
   */
  async addRowsXml(xml: string | Buffer, rows: number): Promise<void> {
    if (!this.sink) throw new Error('Add a sheet before its rows.');
    if (this.rows + rows > XLSX_MAX_ROWS) throw new Error('A sheet holds at most 1,048,576 rows.');
    await this.flush();
    this.rows += rows;
    await this.sink.write(xml);
  }

  /** Ends the current sheet (addSheet and finish call this themselves). */
  async endSheet(): Promise<void> {
    if (!this.sink) return;
    this.buffer += '</sheetData></worksheet>';
    await this.flush();
    this.sink.end();
    this.sink = null;
  }

  /**
   * Ends the last sheet, writes the workbook parts; resolves once the output took them all.
   * `sharedStrings`: an xl/sharedStrings.xml part the sheets' `t="s"` cells index into.
   */
  async finish(sharedStrings: Buffer | null = null): Promise<void> {
    await this.endSheet();
    if (this.sheets.names.length === 0) await this.addSheet('Sheet1').then(() => this.endSheet());
    for (const [path, xml] of workbookParts(this.sheets.names, sharedStrings !== null)) {
      this.zip.addBuffer(path, xml);
    }
    if (sharedStrings) this.zip.addBuffer('xl/sharedStrings.xml', sharedStrings);
    await this.zip.finish();
  }

  private cell(value: XlsxCell, i: number, r: number, style?: XlsxRowStyle): string {
    if (value === null || value === undefined || value === '') return '';
    const ref = (this.letters[i] ??= columnName(i)) + r;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return '';
      const s = style === 'bold' ? STYLE.bold : this.formats[i]?.format ? STYLE.money : 0;
      return `<c r="${ref}"${s ? ` s="${s}"` : ''}><v>${value}</v></c>`;
    }
    if (value instanceof Date) {
      const ms = value.getTime();
      if (Number.isNaN(ms)) return '';
      return `<c r="${ref}" s="${STYLE.date}"><v>${ms / MS_PER_DAY + EXCEL_EPOCH_DAYS}</v></c>`;
    }
    const text = escapeXml(cellText(value, this.options.neutraliseFormulas ?? true));
    const s = style === 'bold' ? ` s="${STYLE.bold}"` : '';
    return `<c r="${ref}" t="inlineStr"${s}><is><t xml:space="preserve">${text}</t></is></c>`;
  }

  private async flush(): Promise<void> {
    if (!this.sink || this.buffer === '') return;
    const chunk = this.buffer;
    this.buffer = '';
    await this.sink.write(chunk);
  }
}
