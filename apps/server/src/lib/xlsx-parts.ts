import { escapeXml } from './xlsx-text.js';

/**
 * The parts of an XLSX package around its sheets' rows, written by xlsx-writer.ts (for the
 * exports and the backup alike): content types, relations, the workbook with its sheet names,
 * and the styles the cells name (`s="1"` bold, `s="2"` a date, `s="3"` money).
 */

export const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
export const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

export const STYLE = { plain: 0, bold: 1, date: 2, money: 3 } as const;

/** A worksheet's opening tag. */
export const WORKSHEET_OPEN = `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">`;

/** Keeps the first row in view while scrolling. */
export const FROZEN_HEADER =
  '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" ' +
  'activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>';

/** Sheet names as a workbook takes them: at most 31 characters, none of []:*?/\, unique. */
export class SheetNames {
  readonly names: string[] = [];

  add(wanted: string): string {
    const base =
      wanted
        .replace(/[[\]:*?/\\]/g, ' ')
        .replace(/^'+|'+$/g, '')
        .trim() || 'Sheet';
    const taken = new Set(this.names.map((s) => s.toLowerCase()));
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? '' : ` (${n})`;
      const name = base.slice(0, 31 - suffix.length) + suffix;
      if (!taken.has(name.toLowerCase())) {
        this.names.push(name);
        return name;
      }
    }
  }
}

export const sheetPath = (n: number) => `xl/worksheets/sheet${n}.xml`;

/** The workbook's other parts, by path, for sheets 1..n named `names`. */
export function workbookParts(
  names: readonly string[],
  sharedStrings: boolean,
): [path: string, xml: string][] {
  const sheets = names.map((name, i) => ({ name: escapeXml(name), n: i + 1 }));
  return [
    [
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
          .map((s) => `<Override PartName="/${sheetPath(s.n)}" ContentType="${CT}.worksheet+xml"/>`)
          .join('') +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${NS_PKG}"><Relationship Id="rId1" ` +
        `Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheets>` +
        sheets.map((s) => `<sheet name="${s.name}" sheetId="${s.n}" r:id="rId${s.n}"/>`).join('') +
        '</sheets></workbook>',
    ],
    [
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
    ],
    ['xl/styles.xml', STYLES],
  ];
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
