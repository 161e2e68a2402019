import { cellText, escapeXml } from '../../lib/xlsx-text.js';
import { binaryFields } from './binary-fields.js';
import { INCOMPLETE, TRAILER, tupleEnd } from './copy-binary.js';
import type { SharedStringsTable } from './shared-strings.js';
import type { CopyFieldKind, CopyToXmlConverter, CopyXmlBatch } from './copy-xml-types.js';

export type { CopyFieldKind, CopyToXmlConverter, CopyXmlBatch } from './copy-xml-types.js';

/**
 * For the backup's rate (docs/performance.md, backup rate). Turns the tuples of a binary
 * `COPY ... TO STDOUT` (copy-binary.ts; the table pipe takes the header and trailer out) into
 * sheet rows, byte for byte and in one pass. Binary, because PostgreSQL's text output
 * (uuids and numbers printed, every text scanned for escapes, dates turned into serials in SQL)
 * cost it a third more CPU than sending the values as they are, and each field comes with its
 * length: no tab to look for, no escape to undo. Per field kind (copy-xml-types.ts): a text's
 * bytes are looked at through a table of byte classes (unless the shared strings hold it: only
 * texts written as they are go there); uuids, integers and timestamptz dates are written by
 * binary-fields.ts; other numbers and dates come as the text of a float8 (a date as its sheet
 * serial, computed in SQL: backup-rows-sql.ts), whose digits are copied. The field and the markup
 * around it are moved a 32-bit word at a time through DataViews (node's small-buffer copies cost
 * more than the bytes; a byte at a time, the markup alone was a third of the time). A text
 * holding anything unusual (a control character, a character XML forbids, more bytes than the
 * cell cap could be) is decoded and made safe by the JavaScript writer's own cellText and
 * escapeXml, so it reads back the same.
 *
 * Cells carry no `r` reference (optional: a cell follows the one before it, a row the row before
 * it), so a row fits whichever sheet it lands in; an empty cell is `<c/>` to keep the next ones
 * in their columns, and empty cells at a row's end are left out. `xml:space="preserve"` is only
 * written on a text that starts or ends with a space. Given a shared-strings table
 * (shared-strings.ts), a text written as it is becomes an index into it while its column keeps
 * finding texts there. Each batch's XML is handed over in the memory it was written in (no
 * copy), which the worker transfers to the main thread as it is.
 */

const SPACE = 0x20;
/**
 * A constant's bytes, and the same as little-endian 32-bit words written at 0, 4, 8... and the
 * last at its end (overlapping the one before): a DataView writes them a word at a time.
 */
interface Part {
  readonly length: number;
  readonly words: Int32Array;
}
const enc = (s: string): Part => {
  const b = Buffer.from(s, 'latin1');
  const words = new Int32Array(Math.ceil(b.length / 4));
  for (let i = 0; i < words.length - 1; i++) words[i] = b.readInt32LE(i * 4);
  words[words.length - 1] = b.readInt32LE(b.length - 4);
  return { length: b.length, words };
};
const EMPTY = enc('<c/>');
const ROW = enc('<row>');
const ROW_END = enc('</row>');
const TEXT_KEEP = enc('<c t="inlineStr"><is><t xml:space="preserve">');
const TEXT = enc('<c t="inlineStr"><is><t>');
const TEXT_END = enc('</t></is></c>');
const NUM = enc('<c><v>');
const DATE = enc('<c s="2"><v>');
const NUM_END = enc('</v></c>');
/** Strings a column may add to the shared table: a column of mostly new texts stops there. */
const COLUMN_BUDGET = 8192;
const AMP = enc('&amp;');
const LT = enc('&lt;');
const GT = enc('&gt;');
const QUOT = enc('&quot;');
/**
 * The longest a row's XML may grow per byte of the tuple (`"` becomes `&quot;`; an int2's 2
 * bytes `-32768`, a date's 8 bytes a serial of up to 24 characters).
 */
const GROWTH = 6;
/** Room for one cell's markup. */
const CELL_MARKUP = 64;
/** Past this many bytes a text might pass the 32,767-character cap: the careful path. */
const FAST_MAX_BYTES = 32_766;

/** Byte classes of a text field: plain, escaped for XML, needing the careful path, a maybe. */
const ESCAPE = 1;
const CAREFUL = 2;
const MAYBE_NOT_XML = 4;
const CLASS = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) CLASS[c] = CAREFUL;
for (const c of '&<>"') CLASS[c.charCodeAt(0)] = ESCAPE;
CLASS[0xef] = MAYBE_NOT_XML; // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters.

/** Field kinds as codes, in the order of CopyFieldKind's cases. */
const K_TEXT = 0;
const K_SAFE = 1;
const K_UUID = 2;
const K_INT = 3;
const K_NUMBER = 4;
const K_SERIAL = 5;
const K_DATE = 6;
const CODES = {
  text: K_TEXT,
  safe: K_SAFE,
  uuid: K_UUID,
  int: K_INT,
  number: K_NUMBER,
  serial: K_SERIAL,
  date: K_DATE,
} as const;

/** The output memory a batch starts with (it grows as a batch needs). */
const OUT_BYTES = 512 * 1024;

export class CopyToXml implements CopyToXmlConverter {
  private out: Uint8Array;
  /** `out`, and the batch being read, as DataViews: bytes move a word at a time. */
  private view: DataView;
  private input: DataView;
  private len: number;
  private rest: Buffer | null;
  private readonly kinds: Uint8Array;
  private readonly shared: SharedStringsTable | null;
  /** Per column: strings it may still add, -1 once it no longer looks them up; and hits. */
  private readonly budget: Int32Array;
  private readonly hits: Int32Array;
  references: number;

  constructor(kinds: readonly CopyFieldKind[], shared: SharedStringsTable | null = null) {
    this.shared = shared;
    this.budget = new Int32Array(kinds.length).fill(COLUMN_BUDGET);
    this.hits = new Int32Array(kinds.length);
    this.references = 0;
    this.out = new Uint8Array(OUT_BYTES);
    this.view = new DataView(this.out.buffer);
    this.input = new DataView(new ArrayBuffer(0));
    this.len = 0;
    this.rest = null;
    this.kinds = Uint8Array.from(kinds, (k) => CODES[k]);
  }

  push(chunk: Buffer | null): CopyXmlBatch {
    let b: Buffer;
    if (chunk === null) b = this.rest ?? Buffer.alloc(0);
    else b = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    this.len = 0;
    this.input = new DataView(b.buffer, b.byteOffset, b.byteLength);
    let p = 0;
    let rows = 0;
    for (;;) {
      const end = tupleEnd(b, p, b.length);
      if (end === INCOMPLETE) break;
      if (end === TRAILER) throw new Error('COPY: the trailer among the rows');
      this.row(b, p, end);
      p = end;
      rows++;
    }
    if (p < b.length) this.rest = b.subarray(p);
    this.input = new DataView(new ArrayBuffer(0));
    return { xml: this.handOver(), rows };
  }

  /**
   * The batch's XML, in memory of its own (never node's shared pool, so a worker can transfer
   * it). Most of the output memory goes as it is, and the next batch writes into new memory; a
   * small batch is copied out instead (not zeroed first, as every byte is written).
   */
  private handOver(): Buffer {
    if (this.len * 4 < this.out.length) {
      const xml = Buffer.allocUnsafeSlow(this.len);
      xml.set(this.out.subarray(0, this.len));
      return xml;
    }
    const xml = Buffer.from(this.out.buffer, 0, this.len);
    // Not zeroed: every byte handed over is written first.
    const next = Buffer.allocUnsafeSlow(this.out.length).buffer as ArrayBuffer;
    this.out = new Uint8Array(next);
    this.view = new DataView(next);
    return xml;
  }

  /** Bytes left that make no whole row (none at a COPY's end). */
  get pending(): number {
    return this.rest?.length ?? 0;
  }

  /** One tuple, `start..end`: its field count, then each field's length (-1: NULL) and bytes. */
  private row(b: Buffer, start: number, end: number): void {
    const kinds = this.kinds;
    const v = this.input;
    if (end - start < 2 || v.getInt16(start) !== kinds.length) {
      throw new Error(`COPY: a row that is not ${kinds.length} fields`);
    }
    this.reserve((end - start) * GROWTH + kinds.length * CELL_MARKUP + 16);
    this.put(ROW);
    // Where the row's cells end once empty ones at its end are left out.
    let filled = this.len;
    let f = start + 2;
    for (let i = 0; i < kinds.length; i++) {
      if (f + 4 > end) throw new Error('COPY: a row cut short');
      const n = v.getInt32(f);
      const s = f + 4;
      const e = n < 0 ? s : s + n;
      if (e > end) throw new Error('COPY: a field past its row');
      f = e;
      const before = this.len;
      const kind = kinds[i]!;
      if (n <= 0)
        this.put(EMPTY); // NULL, or '' (no cell either way)
      else if (kind === K_TEXT) this.text(b, s, e, i);
      else if (kind === K_UUID) this.uuid(s, n, i);
      else if (kind === K_INT) this.int(s, n);
      else if (kind === K_SAFE) {
        if (!(this.shared !== null && this.budget[i]! >= 0 && this.sharedCell(v, s, e, i))) {
          this.put(TEXT);
          this.copy(s, e);
          this.put(TEXT_END);
        }
      } else if (kind === K_DATE) this.date(s, n);
      else this.number(b, s, e, kind === K_SERIAL);
      // Every cell but an empty one is longer than `<c/>`.
      if (this.len - before > EMPTY.length) filled = this.len;
    }
    if (f !== end) throw new Error('COPY: a row longer than its fields');
    this.len = filled;
    this.put(ROW_END);
  }

  /** Writes one text field, bytes `s..e`. */
  private text(b: Buffer, s: number, e: number, column: number): void {
    const n = e - s;
    let flags = 0;
    if (this.shared !== null && this.budget[column]! >= 0) {
      // Only texts written as they are go into the table: one found there needs no looking at.
      if (this.sharedHit(s, e, column)) return;
    }
    for (let i = s; i < e; i++) flags |= CLASS[b[i]!]!;
    if (flags & MAYBE_NOT_XML) {
      for (let i = s; i < e; i++) {
        if (b[i] === 0xef && b[i + 1] === 0xbf && (b[i + 2] === 0xbe || b[i + 2] === 0xbf)) {
          flags |= CAREFUL;
        }
      }
    }
    if (flags & CAREFUL || n > FAST_MAX_BYTES) {
      const xml = Buffer.from(escapeXml(cellText(b.toString('utf8', s, e))), 'utf8');
      this.reserve(xml.length + CELL_MARKUP);
      this.put(TEXT_KEEP);
      this.out.set(xml, this.len);
      this.len += xml.length;
      this.put(TEXT_END);
      return;
    }
    const c0 = b[s]!;
    const spaced = c0 === SPACE || b[e - 1] === SPACE;
    const formula = c0 === 0x3d || c0 === 0x2b || c0 === 0x2d || c0 === 0x40; // = + - @
    if (flags === 0 && !spaced && !formula && this.shared !== null) {
      if (this.budget[column]! >= 0 && this.sharedCell(this.input, s, e, column)) return;
    }
    this.put(spaced ? TEXT_KEEP : TEXT);
    if (formula) this.out[this.len++] = 0x27;
    if (!(flags & ESCAPE)) this.copy(s, e);
    else {
      const o = this.out;
      for (let i = s; i < e; i++) {
        const c = b[i]!;
        if (c === 0x26) this.put(AMP);
        else if (c === 0x3c) this.put(LT);
        else if (c === 0x3e) this.put(GT);
        else if (c === 0x22) this.put(QUOT);
        else o[this.len++] = c;
      }
    }
    this.put(TEXT_END);
  }

  /**
   * A uuid's 16 bytes at `s`, written as its text where an inline cell holds it; then looked up
   * in the shared strings there (its cell overwrites the text when found).
   */
  private uuid(s: number, n: number, column: number): void {
    if (n !== 16) throw new Error('COPY: a uuid that is not 16 bytes');
    const at = this.len + TEXT.length;
    const e = binaryFields.uuid(this.input, s, this.view, at);
    if (this.shared !== null && this.budget[column]! >= 0) {
      if (this.sharedCell(this.view, at, e, column)) return;
    }
    this.put(TEXT);
    this.len = e;
    this.put(TEXT_END);
  }

  /** An int2, int4 or int8 as a number cell. */
  private int(s: number, n: number): void {
    const x = binaryFields.int(this.input, s, n);
    this.put(NUM);
    this.len =
      typeof x === 'number'
        ? binaryFields.digits(this.out, this.len, x)
        : binaryFields.ascii(this.out, this.len, x);
    this.put(NUM_END);
  }

  /** A timestamptz at `s` as a date cell; none for ±infinity. */
  private date(s: number, n: number): void {
    if (n !== 8) throw new Error(`COPY: a timestamp of ${n} bytes`);
    const serial = binaryFields.dateSerial(this.input, s);
    if (Number.isNaN(serial)) {
      this.put(EMPTY);
      return;
    }
    this.put(DATE);
    this.len = binaryFields.serialDigits(this.out, this.len, serial);
    this.put(NUM_END);
  }

  /**
   * A float8's text (PostgreSQL prints the shortest digits that read back the same, as
   * JavaScript does) as a number cell, a date cell for a serial; none for NaN or an infinity.
   */
  private number(b: Buffer, s: number, e: number, date: boolean): void {
    const c = b[s]!;
    if (c === 0x4e || c === 0x49 || (c === 0x2d && b[s + 1] === 0x49)) {
      this.put(EMPTY); // NaN, Infinity, -Infinity: no number a sheet can hold.
      return;
    }
    this.put(date ? DATE : NUM);
    this.copy(s, e);
    this.put(NUM_END);
  }

  /** Writes the text `s..e` of `from` as an index into the shared strings; false when not there. */
  private sharedCell(from: DataView, s: number, e: number, column: number): boolean {
    const shared = this.shared!;
    const index = shared.find(from, s, e, this.budget[column]! > 0);
    if (index < 0) {
      // Out of budget: a column that mostly found its texts already goes on looking them up.
      if (this.budget[column] === 0 && this.hits[column]! < COLUMN_BUDGET) this.budget[column] = -1;
      return false;
    }
    if (shared.added) this.budget[column]!--;
    else this.hits[column]!++;
    this.writeShared();
    return true;
  }

  /** Writes the text as an index into the shared strings if it is there already. */
  private sharedHit(s: number, e: number, column: number): boolean {
    const index = this.shared!.find(this.input, s, e, false);
    if (index < 0) return false;
    this.hits[column]!++;
    this.writeShared();
    return true;
  }

  private writeShared(): void {
    const shared = this.shared!;
    this.references++;
    const cells = shared.view;
    const at = shared.cellAt;
    this.words(cells, at + 1, at + 1 + cells.getUint8(at));
  }

  private reserve(n: number): void {
    if (this.len + n <= this.out.length) return;
    const bigger = new Uint8Array(Math.max(this.out.length * 2, this.len + n));
    bigger.set(this.out.subarray(0, this.len));
    this.out = bigger;
    this.view = new DataView(bigger.buffer);
  }

  /** A short constant, written a word at a time (room was reserved for the row). */
  private put(part: Part): void {
    const v = this.view;
    const w = part.words;
    const n = this.len;
    const last = w.length - 1;
    for (let i = 0; i < last; i++) v.setInt32(n + 4 * i, w[i]!, true);
    v.setInt32(n + part.length - 4, w[last]!, true);
    this.len = n + part.length;
  }

  /** The batch's bytes `s..e`. */
  private copy(s: number, e: number): void {
    if (e - s > 64) {
      const b = this.input;
      this.out.set(new Uint8Array(b.buffer, b.byteOffset + s, e - s), this.len);
      this.len += e - s;
    } else this.words(this.input, s, e);
  }

  /** Bytes `s..e` of `from`, a word at a time, the last word ending at `e`. */
  private words(from: DataView, s: number, e: number): void {
    const v = this.view;
    const n = this.len;
    const size = e - s;
    if (size >= 4) {
      for (let i = 0; i < size - 4; i += 4) v.setInt32(n + i, from.getInt32(s + i, true), true);
      v.setInt32(n + size - 4, from.getInt32(e - 4, true), true);
    } else {
      for (let i = 0; i < size; i++) v.setUint8(n + i, from.getUint8(s + i));
    }
    this.len = n + size;
  }
}
