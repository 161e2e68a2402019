/**
 * Test, browser-test and benchmark helper, kept outside src so no app code can import it:
 * writes a minimal .xlsx — a zip with deflated entries — from rows of cells. A number is written as a numeric cell, a string
 * as a shared-string cell, `{ inline: s }` as an inline string.
 */
export type FixtureCell = number | string | { inline: string };

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) {
    c = (CRC_TABLE[(c ^ (data[i] as number)) & 0xff] as number) ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart])
    .stream()
    .pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export interface ZipFile {
  name: string;
  data: Uint8Array;
  /** Pretend size written to the central directory (to fake a zip bomb). */
  declaredSize?: number;
}

export async function writeZip(files: ZipFile[]): Promise<Uint8Array> {
  const enc = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const f of files) {
    const name = enc.encode(f.name);
    const body = await deflateRaw(f.data);
    const crc = crc32(f.data);
    const size = f.declaredSize ?? f.data.length;
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, 8, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, body.length, true);
    lv.setUint32(22, size, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const head = new Uint8Array(46 + name.length);
    const cv = new DataView(head.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, 8, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, body.length, true);
    cv.setUint32(24, size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    head.set(name, 46);
    chunks.push(local, body);
    central.push(head);
    offset += local.length + body.length;
  }
  const centralSize = central.reduce((s, c) => s + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, files.length, true);
  ev.setUint16(10, files.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  const all = [...chunks, ...central, end];
  const out = new Uint8Array(all.reduce((s, c) => s + c.length, 0));
  let p = 0;
  for (const c of all) {
    out.set(c, p);
    p += c.length;
  }
  return out;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Sheet XML of one workbook sheet plus the shared strings it refers to. */
export function sheetXml(rows: FixtureCell[][], strings: string[]): string {
  const index = new Map(strings.map((s, i) => [s, i]));
  const body = rows.map((row, r) => {
    const cells = row.map((cell, c) => {
      const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
      if (typeof cell === 'number') return `<c r="${ref}" s="1"><v>${cell}</v></c>`;
      if (typeof cell === 'object') {
        return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(cell.inline)}</t></is></c>`;
      }
      let i = index.get(cell);
      if (i === undefined) {
        i = strings.length;
        strings.push(cell);
        index.set(cell, i);
      }
      return `<c r="${ref}" t="s"><v>${i}</v></c>`;
    });
    return `<row r="${r + 1}">${cells.join('')}</row>`;
  });
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cols><col min="1" max="2" width="20"/></cols><sheetData>${body.join('')}</sheetData></worksheet>`;
}

export async function writeXlsx(sheets: FixtureCell[][][]): Promise<Uint8Array> {
  const enc = new TextEncoder();
  const strings: string[] = [];
  const sheetFiles = sheets.map((rows, i) => ({
    name: `xl/worksheets/sheet${i + 1}.xml`,
    data: enc.encode(sheetXml(rows, strings)),
  }));
  const sst = strings.map((s) => `<si><t>${escapeXml(s)}</t></si>`).join('');
  return writeZip([
    { name: '[Content_Types].xml', data: enc.encode('<Types/>') },
    {
      name: 'xl/sharedStrings.xml',
      data: enc.encode(
        `<sst count="${strings.length}" uniqueCount="${strings.length}">${sst}</sst>`,
      ),
    },
    ...sheetFiles,
  ]);
}
