import { textSafety } from '../../lib/xlsx-writer.js';
import type { SharedStringsTable } from './shared-strings.js';
import type {
  CopyFieldKind,
  CopyToXmlClass,
  CopyToXmlConverter,
  CopyXmlBatch,
} from './copy-xml-types.js';

export type {
  CopyFieldKind,
  CopyToXmlClass,
  CopyToXmlConverter,
  CopyXmlBatch,
} from './copy-xml-types.js';

/**
 * Turns the rows of a `COPY ... TO STDOUT` (text format: tab between fields, `\N` for NULL,
 * backslash escapes), as CopyData frames (copy-frames.ts: `d`, length, one row ending in a
 * newline), into sheet rows, byte for byte and in one pass: each field is scanned once through a
 * table of byte classes and copied by hand, since node's small-buffer copies cost more than the
 * bytes. A text field holding anything unusual (a backslash escape, a control character, a
 * character XML forbids, more bytes than the cell cap could be) is decoded and made safe by the
 * JavaScript writer's own cellText and escapeXml, so it reads back the same.
 *
 * Cells carry no `r` reference (optional: a cell follows the one before it, a row the row before
 * it), so a row fits whichever sheet it lands in; an empty cell is `<c/>` to keep the next ones
 * in their columns, and empty cells at a row's end are left out. `xml:space="preserve"` is only
 * written on a text that starts or ends with a space. Given a shared-strings table
 * (shared-strings.ts), a text written as it is becomes an index into it while its column keeps
 * finding texts there.
 *
 * Everything sits inside `defineCopyToXml`, which uses nothing from outside its body but the
 * text rules it is given: copy-worker.ts runs its source on a worker thread.
 */

export function defineCopyToXml(safety: ReturnType<typeof textSafety>): CopyToXmlClass {
  const { cellText, escapeXml } = safety;

  const COPY_DATA = 0x64;
  const TAB = 0x09;
  const BACKSLASH = 0x5c;
  const SPACE = 0x20;
  const enc = (s: string) => Uint8Array.from(Buffer.from(s, 'latin1'));
  const EMPTY = enc('<c/>');
  const ROW = enc('<row>');
  const ROW_END = enc('</row>');
  const TEXT_KEEP = enc('<c t="inlineStr"><is><t xml:space="preserve">');
  const TEXT = enc('<c t="inlineStr"><is><t>');
  const TEXT_END = enc('</t></is></c>');
  const NUM = enc('<c><v>');
  const DATE = enc('<c s="2"><v>');
  const NUM_END = enc('</v></c>');
  /** The shared strings' hash of a text's bytes (FNV-1a, 32 bits), summed while scanning. */
  const HASH_SEED = 0x811c9dc5;
  const HASH_PRIME = 0x01000193;
  /** Strings a column may add to the shared table: a column of mostly new texts stops there. */
  const COLUMN_BUDGET = 8192;
  const AMP = enc('&amp;');
  const LT = enc('&lt;');
  const GT = enc('&gt;');
  const QUOT = enc('&quot;');
  /** The longest a row's XML may grow per byte of COPY text (`"` becomes `&quot;`). */
  const GROWTH = 6;
  /** Room for one cell's markup. */
  const CELL_MARKUP = 64;
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

  /** Byte classes of a text field: plain, escaped for XML, needing the careful path, a maybe. */
  const ESCAPE = 1;
  const CAREFUL = 2;
  const MAYBE_NOT_XML = 4;
  const SEPARATOR = 8;
  const CLASS = new Uint8Array(256);
  for (let c = 0; c < 0x20; c++) CLASS[c] = CAREFUL;
  CLASS[TAB] = SEPARATOR;
  CLASS[BACKSLASH] = CAREFUL;
  for (const c of '&<>"') CLASS[c.charCodeAt(0)] = ESCAPE;
  CLASS[0xef] = MAYBE_NOT_XML; // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters.

  return class CopyToXml implements CopyToXmlConverter {
    private out: Uint8Array;
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
      this.out = new Uint8Array(1 << 20);
      this.len = 0;
      this.rest = null;
      const code = { text: 0, safe: 1, int: 2, date: 3 } as const;
      this.kinds = Uint8Array.from(kinds, (k) => code[k]);
    }

    push(chunk: Buffer | null, maxRows: number): CopyXmlBatch {
      let b: Buffer;
      if (chunk === null) b = this.rest ?? Buffer.alloc(0);
      else b = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
      this.rest = null;
      this.len = 0;
      let p = 0;
      let rows = 0;
      while (rows < maxRows && p + 5 <= b.length) {
        const end = p + 1 + b.readUInt32BE(p + 1);
        if (end > b.length) break;
        if (b[p] !== COPY_DATA)
          throw new Error('COPY: a message that is not CopyData among the rows');
        // The frame's payload is the row and its newline.
        this.row(b, p + 5, end - 1);
        p = end;
        rows++;
      }
      if (p < b.length) this.rest = b.subarray(p);
      const more = this.rest !== null && rows === maxRows && this.wholeFrameIn(this.rest);
      // A copy (the buffer is reused for the next call while this one may still wait in a
      // stream) of its own memory, never node's shared pool, so a worker can transfer it; not
      // zeroed first, as every byte is written.
      const xml = Buffer.allocUnsafeSlow(this.len);
      xml.set(this.out.subarray(0, this.len));
      return { xml, rows, more };
    }

    /** Bytes left that make no whole row (none at a COPY's end). */
    get pending(): number {
      return this.rest?.length ?? 0;
    }

    private wholeFrameIn(b: Buffer): boolean {
      return b.length >= 5 && 1 + b.readUInt32BE(1) <= b.length;
    }

    private row(b: Buffer, start: number, end: number): void {
      this.reserve((end - start) * GROWTH + this.kinds.length * CELL_MARKUP + 16);
      this.put(ROW);
      // Where the row's cells end once empty ones at its end are left out.
      let filled = this.len;
      let f = start;
      const kinds = this.kinds;
      for (let i = 0; i < kinds.length; i++) {
        const kind = kinds[i]!;
        const before = this.len;
        let e = f;
        if (kind === 0) e = this.text(b, f, end, i);
        else if (kind === 1) {
          // Hashed as it is scanned while the column still looks its texts up.
          const hashing = this.shared !== null && this.budget[i]! >= 0;
          let h = HASH_SEED;
          if (hashing) {
            for (let c = b[e]!; e < end && c !== TAB; c = b[++e]!) h = Math.imul(h ^ c, HASH_PRIME);
          } else while (e < end && b[e] !== TAB) e++;
          const n = e - f;
          if (n === 0 || (n === 2 && b[f] === BACKSLASH && b[f + 1] === 0x4e)) {
            this.put(EMPTY); // '' or \N (NULL)
          } else if (!(hashing && this.sharedCell(b, f, e, i, h))) {
            this.put(TEXT);
            this.copy(b, f, e);
            this.put(TEXT_END);
          }
        } else if (f === end || b[f] === TAB || b[f] === BACKSLASH) {
          // '' or \N (NULL: a number's text has no backslash otherwise)
          if (b[f] === BACKSLASH) e = f + 2;
          this.put(EMPTY);
        } else {
          // A number is copied as its end is looked for, and taken back if it is no number.
          this.put(kind === 3 ? DATE : NUM);
          const o = this.out;
          let n = this.len;
          for (let c = b[e]!; e < end && c !== TAB; c = b[++e]!) o[n++] = c;
          const c = b[f]!;
          if (c === 0x4e || c === 0x49 || (c === 0x2d && b[f + 1] === 0x49)) {
            this.len = before; // NaN, Infinity, -Infinity: no number a sheet can hold.
            this.put(EMPTY);
          } else {
            this.len = n;
            this.put(NUM_END);
          }
        }
        // Every cell but an empty one is longer than `<c/>`.
        if (this.len - before > EMPTY.length) filled = this.len;
        f = e + 1;
      }
      this.len = filled;
      this.put(ROW_END);
    }

    /** Writes one text field starting at `s`; answers where it ends (its tab, or the row's end). */
    private text(b: Buffer, s: number, end: number, column: number): number {
      // Hashed as it is scanned while the column still looks its texts up.
      const hashing = this.shared !== null && this.budget[column]! >= 0;
      let h = HASH_SEED;
      let flags = 0;
      let e = s;
      if (hashing) {
        for (; e < end; e++) {
          const c = b[e]!;
          const k = CLASS[c]!;
          if (k !== 0) {
            if (k === SEPARATOR) break;
            flags |= k;
          }
          h = Math.imul(h ^ c, HASH_PRIME);
        }
      } else {
        for (; e < end; e++) {
          const k = CLASS[b[e]!]!;
          if (k !== 0) {
            if (k === SEPARATOR) break;
            flags |= k;
          }
        }
      }
      const n = e - s;
      if (n === 0 || (n === 2 && b[s] === BACKSLASH && b[s + 1] === 0x4e)) {
        this.put(EMPTY); // '' or \N (NULL)
        return e;
      }
      if (flags & MAYBE_NOT_XML) {
        for (let i = s; i < e; i++) {
          if (b[i] === 0xef && b[i + 1] === 0xbf && (b[i + 2] === 0xbe || b[i + 2] === 0xbf)) {
            flags |= CAREFUL;
          }
        }
      }
      if (flags & CAREFUL || n > FAST_MAX_BYTES) {
        const text = b
          .toString('utf8', s, e)
          .replace(/\\(.)/gs, (_, ch: string) => COPY_ESCAPES[ch] ?? ch);
        const xml = Buffer.from(escapeXml(cellText(text)), 'utf8');
        this.reserve(xml.length + CELL_MARKUP);
        this.put(TEXT_KEEP);
        this.copy(xml, 0, xml.length);
        this.put(TEXT_END);
        return e;
      }
      const c0 = b[s]!;
      const spaced = c0 === SPACE || b[e - 1] === SPACE;
      const formula = c0 === 0x3d || c0 === 0x2b || c0 === 0x2d || c0 === 0x40; // = + - @
      if (hashing && flags === 0 && !spaced && !formula) {
        if (this.sharedCell(b, s, e, column, h)) return e;
      }
      this.put(spaced ? TEXT_KEEP : TEXT);
      if (formula) this.out[this.len++] = 0x27;
      if (!(flags & ESCAPE)) this.copy(b, s, e);
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
      return e;
    }

    /** Writes the text as an index into the shared strings; false when it is not there. */
    private sharedCell(b: Buffer, s: number, e: number, column: number, hash: number): boolean {
      const shared = this.shared!;
      const index = shared.find(b, s, e, hash, this.budget[column]! > 0);
      if (index < 0) {
        // Out of budget: a column that mostly found its texts already goes on looking them up.
        if (this.budget[column] === 0 && this.hits[column]! < COLUMN_BUDGET)
          this.budget[column] = -1;
        return false;
      }
      if (shared.added) this.budget[column]!--;
      else this.hits[column]!++;
      this.references++;
      const at = shared.cell(index);
      const cells = shared.cells;
      const size = cells[at]!;
      const o = this.out;
      let n = this.len;
      for (let k = at + 1; k <= at + size; k++) o[n++] = cells[k]!;
      this.len = n;
      return true;
    }

    private reserve(n: number): void {
      if (this.len + n <= this.out.length) return;
      const bigger = new Uint8Array(Math.max(this.out.length * 2, this.len + n));
      bigger.set(this.out.subarray(0, this.len));
      this.out = bigger;
    }

    /** A short constant, copied by hand (room was reserved for the row). */
    private put(part: Uint8Array): void {
      const o = this.out;
      let n = this.len;
      for (let i = 0; i < part.length; i++) o[n++] = part[i]!;
      this.len = n;
    }

    private copy(b: Uint8Array, s: number, e: number): void {
      const o = this.out;
      if (e - s > 64) {
        o.set(b.subarray(s, e), this.len);
        this.len += e - s;
        return;
      }
      let n = this.len;
      for (let i = s; i < e; i++) o[n++] = b[i]!;
      this.len = n;
    }
  };
}

export const CopyToXml = defineCopyToXml(textSafety());
