import { PassThrough, Writable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { pythonZipCheck, sheetTexts, unzip } from '../../test/zip.js';
import { cellText, columnName, escapeXml, XlsxWriter, type XlsxCell } from './xlsx-writer.js';

/** Runs `fill` on a writer and returns the finished file. */
async function produce(fill: (w: XlsxWriter) => Promise<void>): Promise<Buffer> {
  const out = new PassThrough();
  const file = buffer(out);
  const w = new XlsxWriter(out);
  await fill(w);
  await w.finish();
  return file;
}

const PARTS = [
  '[Content_Types].xml',
  '_rels/.rels',
  'xl/workbook.xml',
  'xl/_rels/workbook.xml.rels',
  'xl/styles.xml',
];

describe('cell text', () => {
  it('neutralises formula injection (string cells only)', () => {
    expect(cellText('=HYPERLINK("http://evil","x")')).toBe(`'=HYPERLINK("http://evil","x")`);
    expect(cellText("+1+cmd|'/C calc'!A0")).toBe("'+1+cmd|'/C calc'!A0");
    expect(cellText('-2+3')).toBe("'-2+3");
    expect(cellText('@SUM(1)')).toBe("'@SUM(1)");
    expect(cellText('\tx')).toBe("'\tx");
    expect(cellText('\rx')).toBe("'\rx");
    expect(cellText('\u0000x')).toBe("'x");
    expect(cellText('\u0001=cmd')).toBe("'=cmd");
    expect(cellText('a=b')).toBe('a=b');
    expect(cellText('=x', false)).toBe('=x');
  });

  it('drops characters XML 1.0 forbids and caps the length', () => {
    expect(cellText('a\u0000b\u0008c\u000bd\u001fe\ufffff\nok')).toBe('abcdef\nok');
    expect(cellText('lone \ud800 surrogate, pair 😀')).toBe('lone  surrogate, pair 😀');
    expect(cellText('x'.repeat(40_000))).toHaveLength(32_767);
    expect(escapeXml(`<a href="x">&</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
  });

  it('names columns like a spreadsheet', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual([
      'A',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });
});

/** Every cell of a sheet as SheetJS reads it: type, value, formula (if any). */
function cellsOf(sheet: XLSX.WorkSheet): Map<string, Pick<XLSX.CellObject, 't' | 'v' | 'f' | 'w'>> {
  const cells = new Map<string, Pick<XLSX.CellObject, 't' | 'v' | 'f' | 'w'>>();
  for (const [ref, cell] of Object.entries(sheet)) {
    if (ref.startsWith('!')) continue;
    const { t, v, f, w } = cell as XLSX.CellObject;
    cells.set(ref, f === undefined ? { t, v, w } : { t, v, w, f });
  }
  return cells;
}

describe('XlsxWriter read back by SheetJS', () => {
  const SPECIAL = [
    "<b>&\"Tom\" 'O'Neil'</b>",
    'ünïcødé ✓ 😀 中文',
    'two\nlines',
    '  padded  ',
    '0042',
    'Ω≈ç√∫',
  ];
  const INJECTED = ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '=HYPERLINK("http://evil","x")'];

  it('gives back every cell: text, numbers, dates, neutralised formulas', async () => {
    const when = new Date(Date.UTC(2024, 2, 11, 12, 0, 0));
    const numbers = [0, 7, -2, 1.5, 1234567.89, 2 ** 40, -0.001];
    const file = await produce(async (w) => {
      await w.addSheet('Data', { columns: [{}, {}, { format: 'money' }] });
      await w.addRow(['Text', 'Number', 'Money', 'When'], 'bold');
      for (let i = 0; i < SPECIAL.length; i++) {
        await w.addRow([SPECIAL[i], numbers[i], numbers[i], when]);
      }
      await w.addSheet('Injection');
      for (const text of INJECTED) await w.addRow([text, `a${text}`]);
    });
    const book = XLSX.read(file);
    expect(book.SheetNames).toEqual(['Data', 'Injection']);

    const data = cellsOf(book.Sheets.Data!);
    expect(data.get('A1')).toEqual({ t: 's', v: 'Text', w: 'Text' });
    SPECIAL.forEach((text, i) => {
      const r = i + 2;
      expect(data.get(`A${r}`)?.v).toBe(text);
      expect(data.get(`A${r}`)?.t).toBe('s');
      expect(data.get(`B${r}`)).toMatchObject({ t: 'n', v: numbers[i] });
      expect(data.get(`C${r}`)).toMatchObject({ t: 'n', v: numbers[i] });
      expect(data.get(`D${r}`)).toMatchObject({ t: 'n', v: 45362.5, w: '2024-03-11 12:00:00' });
    });
    expect(data.get('C6')?.w).toBe('1,234,567.89');
    expect(book.Sheets.Data!['!ref']).toBe(`A1:D${SPECIAL.length + 1}`);

    const injection = cellsOf(book.Sheets.Injection!);
    INJECTED.forEach((text, i) => {
      expect(injection.get(`A${i + 1}`)).toEqual({ t: 's', v: `'${text}`, w: `'${text}` });
      expect(injection.get(`B${i + 1}`)).toEqual({ t: 's', v: `a${text}`, w: `a${text}` });
    });
    for (const cell of [...data.values(), ...injection.values()]) expect(cell.f).toBeUndefined();
  });

  it('gives back many rows in order', async () => {
    const rows = 20_000;
    const file = await produce(async (w) => {
      await w.addSheet('Many');
      for (let i = 0; i < rows; i++) await w.addRow([i, `row ${i} <&>`, i % 3 ? null : i / 4]);
    });
    const back = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(file).Sheets.Many!, {
      header: 1,
      defval: null,
    });
    expect(back).toHaveLength(rows);
    back.forEach((row, i) => {
      expect(row).toEqual([i, `row ${i} <&>`, i % 3 ? null : i / 4]);
    });
  });
});

describe('XlsxWriter', () => {
  it('writes a valid package with typed cells, escaping and a bold header', async () => {
    const when = new Date(Date.UTC(2024, 2, 11, 12, 0, 0));
    const file = await produce(async (w) => {
      await w.addSheet('Transactions', {
        columns: [{ width: 20 }, { width: 10 }, { width: 12, format: 'money' }],
        freezeHeader: true,
      });
      await w.addRow(['Name', 'Count', 'Rate', 'When'], 'bold');
      await w.addRow(['<b>&"Tom"</b>', 3, 1.5, when]);
      await w.addRow(['=cmd|/C calc', null, undefined, '']);
      await w.addRow([Number.NaN, 'ünïcødé ✓ 😀', -2, 'bell\u0007']);
    });
    const parts = unzip(file);
    expect([...parts.keys()].sort()).toEqual([...PARTS, 'xl/worksheets/sheet1.xml'].sort());
    expect(pythonZipCheck(file).sort()).toEqual([...parts.keys()].sort());

    expect(parts.get('xl/workbook.xml')).toContain('<sheet name="Transactions" sheetId="1"');
    expect(parts.get('[Content_Types].xml')).toContain('/xl/worksheets/sheet1.xml');
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toContain('<pane ySplit="1"');
    expect(sheet).toContain('<col min="3" max="3" width="12" customWidth="1"/>');
    expect(sheet).toContain('<c r="A1" t="inlineStr" s="1">');
    expect(sheet).toContain('<c r="B2"><v>3</v></c>');
    expect(sheet).toContain('<c r="C2" s="3"><v>1.5</v></c>');
    expect(sheet).toContain('<c r="D2" s="2"><v>45362.5</v></c>'); // 2024-03-11 12:00
    expect(sheet).toContain('&lt;b&gt;&amp;&quot;Tom&quot;&lt;/b&gt;');
    expect(sheet).toMatch(/<row r="3"><c r="A3" t="inlineStr"><is><t[^>]*>'=cmd\|\/C calc<\/t>/);
    expect(sheet).not.toContain('r="B3"');
    expect(sheet).not.toContain('r="A4"');
    expect(sheetTexts(sheet)).toEqual([
      'Name',
      'Count',
      'Rate',
      'When',
      '<b>&"Tom"</b>',
      "'=cmd|/C calc",
      'ünïcødé ✓ 😀',
      'bell',
    ]);
    expect(sheet).toContain('<c r="C4" s="3"><v>-2</v></c>');
    expect(parts.get('xl/styles.xml')).toContain('formatCode="yyyy-mm-dd hh:mm:ss"');
  });

  it('writes several sheets in sequence, with valid unique names', async () => {
    let third = '';
    const file = await produce(async (w) => {
      expect(await w.addSheet('users')).toBe('users');
      await w.addRow(['a']);
      expect(await w.addSheet('Users')).toBe('Users (2)');
      third = await w.addSheet('a/b:c*d?[e]' + 'x'.repeat(40));
      await w.addRow(['c']);
    });
    expect(third).toBe(`a b c d  e ${'x'.repeat(20)}`);
    const parts = unzip(file);
    expect(parts.has('xl/worksheets/sheet3.xml')).toBe(true);
    expect(parts.get('xl/_rels/workbook.xml.rels')).toContain('Id="rId4"');
    expect(parts.get('xl/workbook.xml')).toContain('name="Users (2)" sheetId="2" r:id="rId2"');
    expect(sheetTexts(parts.get('xl/worksheets/sheet2.xml')!)).toEqual([]);
    expect(sheetTexts(parts.get('xl/worksheets/sheet3.xml')!)).toEqual(['c']);
    expect(XLSX.read(file).SheetNames).toEqual(['users', 'Users (2)', third]);
  });

  it('an empty workbook still has one sheet', async () => {
    const parts = unzip(await produce(async () => {}));
    expect(parts.get('xl/workbook.xml')).toContain('name="Sheet1"');
  });

  it('streams many rows through a slow reader with bounded buffering', async () => {
    const chunks: Buffer[] = [];
    let maxBuffered = 0;
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        setImmediate(cb);
      },
    });
    const w = new XlsxWriter(slow);
    await w.addSheet('Big');
    const rows = 60_000;
    for (let i = 0; i < rows; i++) {
      const row: XlsxCell[] = [i, `row ${i} ${'lorem ipsum '.repeat(3)}`, i * 0.25];
      await w.addRow(row);
      maxBuffered = Math.max(maxBuffered, slow.writableLength);
    }
    expect(w.rowsInSheet).toBe(rows);
    await w.finish();
    expect(slow.writableFinished).toBe(true);
    const file = Buffer.concat(chunks);
    const sheet = unzip(file).get('xl/worksheets/sheet1.xml')!;
    expect(sheet.length).toBeGreaterThan(3_000_000);
    expect(sheet).toContain(`<row r="${rows}"><c r="A${rows}"><v>${rows - 1}</v></c>`);
    expect(maxBuffered).toBeLessThan(1024 * 1024);
    pythonZipCheck(file); // throws where python finds the archive invalid
  });

  it('rejects instead of hanging when the output closes early', async () => {
    const out = new PassThrough({ highWaterMark: 1024 });
    const w = new XlsxWriter(out);
    await w.addSheet('S');
    const writing = (async () => {
      for (let i = 0; i < 1_000_000; i++) await w.addRow([`row ${i} ${Math.random()}`]);
    })();
    setTimeout(() => out.destroy(), 20);
    await expect(writing).rejects.toThrow();
  });
});
