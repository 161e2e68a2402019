import type { Writable } from 'node:stream';
import { ZipStream, type ZipEntrySink } from './zip-stream.js';

/**
 * A small streaming XLSX (OOXML spreadsheet) writer: inline strings, numbers, date cells, a bold
 * header style, one or more sheets written one after another. Rows are turned into XML and
 * deflated as they come (the package is a yazl zip, zip-stream.ts), so a sheet of a million
 * rows needs no more memory than a few rows.
 *
 * Text is made safe twice: characters XML 1.0 forbids are dropped and the rest escaped, and
 * (unless turned off) a cell starting with = + - @ tab, CR or NUL gets a leading `'`, so a
 * spreadsheet never runs it as a formula (decisions.md section 7; reliability.md 3.8).
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
const MS_PER_DAY = 86_400_000;
const EXCEL_EPOCH_DAYS = 25_569; // 1970-01-01 as an Excel serial day

const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const STYLE = { plain: 0, bold: 1, date: 2, money: 3 } as const;

/**
 * The text rules of a cell, in one self-contained function (it uses nothing from outside its
 * body): the backup's worker thread runs its source (modules/backup/copy-worker.ts), so both
 * threads make text safe by the same code.
 */
export function textSafety() {
  const MAX_TEXT = 32_767;
  // Characters XML 1.0 does not allow, and surrogates that do not form a pair.
  const NOT_XML =
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g; // eslint-disable-line no-control-regex
  const FORMULA_START = /^[=+\-@\t\r\u0000]/; // eslint-disable-line no-control-regex
  /** Escapes text for XML content and attribute values. */
  const escapeXml = (text: string): string =>
    text.replace(/[&<>"]/g, (c) =>
      c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
    );
  /** Text as a cell may hold it: XML-safe, at most 32,767 characters, formulas neutralised. */
  const cellText = (text: string, neutraliseFormulas = true): string => {
    let clean = text.replace(NOT_XML, '');
    if (neutraliseFormulas && (FORMULA_START.test(text) || FORMULA_START.test(clean))) {
      clean = `'${clean}`;
    }
    return clean.length > MAX_TEXT ? clean.slice(0, MAX_TEXT).replace(NOT_XML, '') : clean;
  };
  return { escapeXml, cellText };
}

export const { escapeXml, cellText } = textSafety();

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
  private readonly sheets: string[] = [];
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
    const sheetName = this.uniqueName(name);
    this.sheets.push(sheetName);
    const { compressionLevel, bufferBytes } = options;
    this.sink = this.zip.openEntry(`xl/worksheets/sheet${this.sheets.length}.xml`, {
      ...(compressionLevel === undefined ? {} : { compressionLevel }),
      ...(bufferBytes === undefined ? {} : { bufferBytes }),
    });
    this.rows = 0;
    this.formats = options.columns ?? [];
    let head = `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">`;
    if (options.freezeHeader) {
      head +=
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" ' +
        'activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>';
    }
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
   * with the right ones), made safe by the caller as `addRow` would: the backup has PostgreSQL
   * write them. A piece may end or start inside a row; `rows` counts the rows it ends.
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
    if (this.sheets.length === 0) await this.addSheet('Sheet1').then(() => this.endSheet());
    const sheets = this.sheets.map((name, i) => ({ name: escapeXml(name), n: i + 1 }));
    this.zip.addBuffer(
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        `<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/>` +
        (sharedStrings
          ? `<Override PartName="/xl/sharedStrings.xml" ContentType="${CT}.sharedStrings+xml"/>`
          : '') +
        sheets
          .map(
            (s) =>
              `<Override PartName="/xl/worksheets/sheet${s.n}.xml" ContentType="${CT}.worksheet+xml"/>`,
          )
          .join('') +
        '</Types>',
    );
    this.zip.addBuffer(
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${NS_PKG}"><Relationship Id="rId1" ` +
        `Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    this.zip.addBuffer(
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheets>` +
        sheets.map((s) => `<sheet name="${s.name}" sheetId="${s.n}" r:id="rId${s.n}"/>`).join('') +
        '</sheets></workbook>',
    );
    this.zip.addBuffer(
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${NS_PKG}">` +
        sheets
          .map(
            (s) =>
              `<Relationship Id="rId${s.n}" Type="${NS_REL}/worksheet" Target="worksheets/sheet${s.n}.xml"/>`,
          )
          .join('') +
        `<Relationship Id="rId${sheets.length + 1}" Type="${NS_REL}/styles" Target="styles.xml"/>` +
        (sharedStrings
          ? `<Relationship Id="rId${sheets.length + 2}" Type="${NS_REL}/sharedStrings" Target="sharedStrings.xml"/>`
          : '') +
        '</Relationships>',
    );
    this.zip.addBuffer('xl/styles.xml', STYLES);
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

  private uniqueName(wanted: string): string {
    const base =
      wanted
        .replace(/[[\]:*?/\\]/g, ' ')
        .replace(/^'+|'+$/g, '')
        .trim() || 'Sheet';
    const taken = new Set(this.sheets.map((s) => s.toLowerCase()));
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? '' : ` (${n})`;
      const name = base.slice(0, 31 - suffix.length) + suffix;
      if (!taken.has(name.toLowerCase())) return name;
    }
  }

  private async flush(): Promise<void> {
    if (!this.sink || this.buffer === '') return;
    const chunk = this.buffer;
    this.buffer = '';
    await this.sink.write(chunk);
  }
}

const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${NS_MAIN}">` +
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill>' +
  '<fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';
