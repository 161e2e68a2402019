/**
 * Own code for issue 13's backup rate target. The workbook's shared-string table (xl/sharedStrings.xml) for the backup: a text that repeats
 * (an email, a name, a type on millions of ledger rows) is written once there and each cell
 * holds its index (`<c t="s"><v>12</v></c>`, 22 bytes instead of 40 to 70), so the sheets have a
 * third less XML to build and deflate. Bounded: at most MAX_ENTRIES strings in MAX_BYTES; once
 * full, texts go inline as before. Only texts copied as they are (no escaping, no formula mark,
 * no space at either end) are taken, so an entry's bytes are its XML as well.
 *
 * Keys are the field's bytes, never strings: a hash over them, taken a 32-bit word at a time
 * (murmur3's steps), picks a slot in an open-addressing table, and the bytes are compared, a
 * word at a time too, when the whole hash matches. Self-contained (uses nothing from outside its
 * body): copy-worker.ts runs its source on the worker thread that converts rows.
 */

export interface SharedStringsTable {
  /**
   * The index of the bytes `b[s..e)`; when new, added if `mayAdd` and there is room (`added`
   * tells). -1: not in the table and not added.
   */
  lookup(b: Uint8Array, s: number, e: number, mayAdd: boolean): number;
  /** `lookup` of bytes `s..e` of a DataView (the converter reads its batch through one). */
  find(v: DataView, s: number, e: number, mayAdd: boolean): number;
  /**
   * Where an entry's cell (`<c t="s"><v>12</v></c>`) sits in `cells`: its length, then its
   * bytes. Made on first use (digits cost divisions), then only copied.
   */
  cell(entry: number): number;
  readonly cells: Uint8Array;
  /** Whether the last lookup added its bytes. */
  readonly added: boolean;
  readonly size: number;
  /** The part's XML; `references`: how many cells use the table. */
  xml(references: number): Buffer;
}

export type SharedStringsClass = new () => SharedStringsTable;

export function defineSharedStrings(): SharedStringsClass {
  const MAX_ENTRIES = 1 << 17;
  const MAX_BYTES = 16 << 20;
  const SLOTS = 1 << 18; // twice MAX_ENTRIES: probes stay short
  /** Room per entry in `cells`: a length byte and `<c t="s"><v>2147483647</v></c>`. */
  const CELL_STRIDE = 32;
  const HEAD =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';

  return class SharedStrings implements SharedStringsTable {
    added: boolean;
    size: number;
    cells: Uint8Array;
    private readonly slots: Int32Array;
    private readonly starts: Int32Array;
    private readonly lengths: Int32Array;
    private readonly hashes: Int32Array;
    private arena: Uint8Array;
    private arenaView: DataView;
    private used: number;

    constructor() {
      this.added = false;
      this.size = 0;
      this.cells = new Uint8Array(0);
      this.slots = new Int32Array(SLOTS); // entry index + 1; 0 is free
      this.starts = new Int32Array(MAX_ENTRIES);
      this.lengths = new Int32Array(MAX_ENTRIES);
      this.hashes = new Int32Array(MAX_ENTRIES);
      this.arena = new Uint8Array(1 << 20);
      this.arenaView = new DataView(this.arena.buffer);
      this.used = 0;
    }

    lookup(b: Uint8Array, s: number, e: number, mayAdd: boolean): number {
      return this.find(new DataView(b.buffer, b.byteOffset, b.byteLength), s, e, mayAdd);
    }

    find(v: DataView, s: number, e: number, mayAdd: boolean): number {
      this.added = false;
      const n = e - s;
      const h = this.hash(v, s, e);
      let slot = h & (SLOTS - 1);
      for (;;) {
        const entry = this.slots[slot]! - 1;
        if (entry < 0) break;
        if (this.hashes[entry] === h && this.lengths[entry] === n && this.same(entry, v, s, n)) {
          return entry;
        }
        slot = (slot + 1) & (SLOTS - 1);
      }
      if (!mayAdd || this.size >= MAX_ENTRIES || this.used + n > MAX_BYTES) return -1;
      if (this.used + n > this.arena.length) {
        const bigger = new Uint8Array(Math.min(MAX_BYTES, Math.max(this.arena.length * 2, n)));
        bigger.set(this.arena.subarray(0, this.used));
        this.arena = bigger;
        this.arenaView = new DataView(bigger.buffer);
      }
      const entry = this.size++;
      this.arena.set(new Uint8Array(v.buffer, v.byteOffset + s, n), this.used);
      this.starts[entry] = this.used;
      this.lengths[entry] = n;
      this.hashes[entry] = h;
      this.used += n;
      this.slots[slot] = entry + 1;
      this.added = true;
      return entry;
    }

    cell(entry: number): number {
      const at = entry * CELL_STRIDE;
      if (at >= this.cells.length) {
        const bigger = new Uint8Array(Math.max(this.cells.length * 2, at + CELL_STRIDE));
        bigger.set(this.cells);
        this.cells = bigger;
      }
      if (this.cells[at] === 0) {
        const cell = Buffer.from(`<c t="s"><v>${entry}</v></c>`, 'latin1');
        this.cells.set(cell, at + 1);
        this.cells[at] = cell.length;
      }
      return at;
    }

    xml(references: number): Buffer {
      const parts: Buffer[] = [
        Buffer.from(`${HEAD} count="${references}" uniqueCount="${this.size}">`, 'latin1'),
      ];
      const open = Buffer.from('<si><t>', 'latin1');
      const close = Buffer.from('</t></si>', 'latin1');
      for (let i = 0; i < this.size; i++) {
        const start = this.starts[i]!;
        parts.push(open, Buffer.from(this.arena.subarray(start, start + this.lengths[i]!)), close);
      }
      parts.push(Buffer.from('</sst>', 'latin1'));
      return Buffer.concat(parts);
    }

    /**
     * murmur3 (32 bits) over the bytes as little-endian words, the last word ending at `e`
     * (overlapping the one before), seeded with the length; fewer than 4 bytes make one word.
     */
    private hash(v: DataView, s: number, e: number): number {
      let h = e - s;
      if (e - s < 4) {
        let k = 0;
        for (let i = s; i < e; i++) k = (k << 8) | v.getUint8(i);
        h = this.mix(h, k);
      } else {
        for (let i = s; i < e - 4; i += 4) h = this.mix(h, v.getInt32(i, true));
        h = this.mix(h, v.getInt32(e - 4, true));
      }
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      return h ^ (h >>> 16);
    }

    private mix(h: number, word: number): number {
      let k = Math.imul(word, 0xcc9e2d51);
      k = (k << 15) | (k >>> 17);
      let x = h ^ Math.imul(k, 0x1b873593);
      x = (x << 13) | (x >>> 19);
      return (Math.imul(x, 5) + 0xe6546b64) | 0;
    }

    private same(entry: number, v: DataView, s: number, n: number): boolean {
      const a = this.arenaView;
      const at = this.starts[entry]!;
      if (n < 4) {
        for (let i = 0; i < n; i++) if (a.getUint8(at + i) !== v.getUint8(s + i)) return false;
        return true;
      }
      for (let i = 0; i < n - 4; i += 4) {
        if (a.getInt32(at + i, true) !== v.getInt32(s + i, true)) return false;
      }
      return a.getInt32(at + n - 4, true) === v.getInt32(s + n - 4, true);
    }
  };
}

export const SharedStrings = defineSharedStrings();
