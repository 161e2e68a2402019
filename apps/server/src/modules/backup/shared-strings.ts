/**
 * The workbook's shared-string table (xl/sharedStrings.xml) for the backup: a text that repeats
 * (an email, a name, a type on millions of ledger rows) is written once there and each cell
 * holds its index (`<c t="s"><v>12</v></c>`, 22 bytes instead of 40 to 70), so the sheets have a
 * third less XML to build and deflate. Bounded: at most MAX_ENTRIES strings in MAX_BYTES; once
 * full, texts go inline as before. Only texts copied as they are (no escaping, no formula mark,
 * no space at either end) are taken, so an entry's bytes are its XML as well.
 *
 * Keys are the field's bytes, never strings: a hash over them picks a slot in an open-addressing
 * table, and bytes are compared on a hash match. Self-contained (uses nothing from outside its
 * body): copy-worker.ts runs its source on the worker thread that converts rows.
 */

export interface SharedStringsTable {
  /**
   * The index of the bytes `b[s..e)`; when new, added if `mayAdd` and there is room (`added`
   * tells). -1: not in the table and not added.
   */
  lookup(b: Uint8Array, s: number, e: number, mayAdd: boolean): number;
  /**
   * `lookup` given the bytes' hash already (FNV-1a from HASH_SEED by HASH_PRIME, as `lookup`
   * computes it): the converter sums it while it scans the field anyway.
   */
  find(b: Uint8Array, s: number, e: number, hash: number, mayAdd: boolean): number;
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
  const HASH_SEED = 0x811c9dc5;
  const HASH_PRIME = 0x01000193;
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
    private arena: Uint8Array;
    private used: number;

    constructor() {
      this.added = false;
      this.size = 0;
      this.cells = new Uint8Array(0);
      this.slots = new Int32Array(SLOTS); // entry index + 1; 0 is free
      this.starts = new Int32Array(MAX_ENTRIES);
      this.lengths = new Int32Array(MAX_ENTRIES);
      this.arena = new Uint8Array(1 << 20);
      this.used = 0;
    }

    lookup(b: Uint8Array, s: number, e: number, mayAdd: boolean): number {
      let h = HASH_SEED;
      for (let i = s; i < e; i++) h = Math.imul(h ^ b[i]!, HASH_PRIME);
      return this.find(b, s, e, h, mayAdd);
    }

    find(b: Uint8Array, s: number, e: number, h: number, mayAdd: boolean): number {
      this.added = false;
      const n = e - s;
      let slot = (h ^ (h >>> 15)) & (SLOTS - 1);
      for (;;) {
        const entry = this.slots[slot]! - 1;
        if (entry < 0) break;
        if (this.lengths[entry] === n && this.same(entry, b, s, n)) return entry;
        slot = (slot + 1) & (SLOTS - 1);
      }
      if (!mayAdd || this.size >= MAX_ENTRIES || this.used + n > MAX_BYTES) return -1;
      if (this.used + n > this.arena.length) {
        const bigger = new Uint8Array(Math.min(MAX_BYTES, Math.max(this.arena.length * 2, n)));
        bigger.set(this.arena.subarray(0, this.used));
        this.arena = bigger;
      }
      const entry = this.size++;
      this.arena.set(b.subarray(s, e), this.used);
      this.starts[entry] = this.used;
      this.lengths[entry] = n;
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

    private same(entry: number, b: Uint8Array, s: number, n: number): boolean {
      const a = this.arena;
      const at = this.starts[entry]!;
      for (let i = 0; i < n; i++) if (a[at + i] !== b[s + i]) return false;
      return true;
    }
  };
}

export const SharedStrings = defineSharedStrings();
