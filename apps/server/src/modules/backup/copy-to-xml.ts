import { cellText, escapeXml } from '../../lib/xlsx-writer.js';

/**
 * Turns the rows of a `COPY ... TO STDOUT` (text format: tab between fields, newline after a
 * row, `\N` for NULL, backslash escapes) into sheet rows, byte for byte: PostgreSQL's plain COPY
 * is the cheapest way out of the database, and a field that needs nothing but copying (almost
 * all of them) is copied as bytes. A text field holding anything unusual (a backslash escape, a
 * control character, a character XML forbids, more bytes than the cell cap could be) is decoded
 * and made safe by the JavaScript writer's own cellText and escapeXml, so it reads back the same.
 *
 * Cells carry no `r` reference (optional: a cell follows the one before it, a row the row before
 * it), so a row fits whichever sheet it lands in; an empty cell is `<c/>` to keep the next ones
 * in their columns.
 */

/** text: made safe; safe: written as it is (uuid, boolean); int: a number; date: a serial. */
export type CopyFieldKind = 'text' | 'safe' | 'int' | 'date';

const TAB = 0x09;
const NL = 0x0a;
const BACKSLASH = 0x5c;
const enc = (s: string) => Buffer.from(s, 'latin1');
const EMPTY = enc('<c/>');
const ROW = enc('<row>');
const ROW_END = enc('</row>');
const TEXT = enc('<c t="inlineStr"><is><t xml:space="preserve">');
const SAFE = enc('<c t="inlineStr"><is><t>');
const TEXT_END = enc('</t></is></c>');
const NUM = enc('<c><v>');
const DATE = enc('<c s="2"><v>');
const NUM_END = enc('</v></c>');
const AMP = enc('&amp;');
const LT = enc('&lt;');
const GT = enc('&gt;');
const QUOT = enc('&quot;');
/** Past this many bytes a text might pass the 32,767-character cap: the careful path. */
const FAST_MAX_BYTES = 32_766;
const COPY_ESCAPES: Record<string, string> = {
  t: '\t',
  n: '\n',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
};

export class CopyToXml {
  private out = Buffer.allocUnsafe(1 << 20);
  private len = 0;
  private rest: Buffer | null = null;

  constructor(private readonly kinds: readonly CopyFieldKind[]) {}

  /**
   * Adds a chunk of COPY output; gives back the XML of up to `maxRows` whole rows, how many, and
   * whether rows are left over (call `next` with no new chunk for them once the sheet changed).
   */
  push(chunk: Buffer | null, maxRows: number): { xml: Buffer; rows: number; more: boolean } {
    let input: Buffer;
    if (chunk === null) input = this.rest ?? Buffer.alloc(0);
    else input = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    this.len = 0;
    let pos = 0;
    let rows = 0;
    while (rows < maxRows) {
      const nl = input.indexOf(NL, pos);
      if (nl === -1) break;
      this.row(input, pos, nl);
      pos = nl + 1;
      rows++;
    }
    if (pos < input.length) this.rest = input.subarray(pos);
    const more = this.rest !== null && this.rest.includes(NL);
    // A copy: the buffer is reused for the next call while this one may still wait in a stream.
    return { xml: Buffer.from(this.out.subarray(0, this.len)), rows, more };
  }

  /** Bytes left that end no row (a table's COPY ends with a newline: none at its end). */
  get pending(): number {
    return this.rest?.length ?? 0;
  }

  private row(b: Buffer, start: number, end: number): void {
    this.put(ROW);
    let f = start;
    for (let i = 0; i < this.kinds.length; i++) {
      let e = b.indexOf(TAB, f);
      if (e === -1 || e > end) e = end;
      this.field(b, f, e, this.kinds[i]!);
      f = e + 1;
    }
    this.put(ROW_END);
  }

  private field(b: Buffer, s: number, e: number, kind: CopyFieldKind): void {
    const n = e - s;
    if (n === 0 || (n === 2 && b[s] === BACKSLASH && b[s + 1] === 0x4e)) {
      this.put(EMPTY); // '' or \N (NULL)
      return;
    }
    if (kind === 'int' || kind === 'date') {
      const c = b[s]!;
      // NaN, Infinity, -Infinity: no number a sheet can hold.
      if (c === 0x4e || c === 0x49 || (c === 0x2d && b[s + 1] === 0x49)) this.put(EMPTY);
      else {
        this.put(kind === 'date' ? DATE : NUM);
        this.copy(b, s, e);
        this.put(NUM_END);
      }
      return;
    }
    if (kind === 'safe') {
      this.put(SAFE);
      this.copy(b, s, e);
      this.put(TEXT_END);
      return;
    }
    let special = false;
    let careful = n > FAST_MAX_BYTES;
    for (let i = s; i < e && !careful; i++) {
      const c = b[i]!;
      if (c < 0x20 || c === BACKSLASH) careful = true;
      else if (c === 0x26 || c === 0x3c || c === 0x3e || c === 0x22) special = true;
      // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters.
      else if (c === 0xef && b[i + 1] === 0xbf && (b[i + 2] === 0xbe || b[i + 2] === 0xbf)) {
        careful = true;
      }
    }
    if (careful) {
      const text = b
        .toString('utf8', s, e)
        .replace(/\\(.)/gs, (_, ch: string) => COPY_ESCAPES[ch] ?? ch);
      this.put(TEXT);
      this.putString(escapeXml(cellText(text)));
      this.put(TEXT_END);
      return;
    }
    this.put(TEXT);
    const c0 = b[s]!;
    if (c0 === 0x3d || c0 === 0x2b || c0 === 0x2d || c0 === 0x40) this.putByte(0x27); // = + - @
    if (!special) this.copy(b, s, e);
    else {
      this.reserve(n * 6);
      for (let i = s; i < e; i++) {
        const c = b[i]!;
        if (c === 0x26) this.put(AMP);
        else if (c === 0x3c) this.put(LT);
        else if (c === 0x3e) this.put(GT);
        else if (c === 0x22) this.put(QUOT);
        else this.out[this.len++] = c;
      }
    }
    this.put(TEXT_END);
  }

  private reserve(n: number): void {
    if (this.len + n <= this.out.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.len + n));
    this.out.copy(bigger, 0, 0, this.len);
    this.out = bigger;
  }

  private put(part: Buffer): void {
    this.reserve(part.length);
    part.copy(this.out, this.len);
    this.len += part.length;
  }

  private putByte(c: number): void {
    this.reserve(1);
    this.out[this.len++] = c;
  }

  private copy(b: Buffer, s: number, e: number): void {
    this.reserve(e - s);
    b.copy(this.out, this.len, s, e);
    this.len += e - s;
  }

  private putString(s: string): void {
    this.reserve(Buffer.byteLength(s));
    this.len += this.out.write(s, this.len, 'utf8');
  }
}
