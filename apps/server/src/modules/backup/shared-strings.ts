/**
 * For the backup's rate (docs/performance.md, backup rate): the workbook's shared-string table
 * (xl/sharedStrings.xml) for the backup: a text that repeats (an email, a name, a type on
 * millions of ledger rows) is written once there and each cell
 * holds its index (`<c t="s"><v>12</v></c>`, 22 bytes instead of 40 to 70), so the sheets have a
 * third less XML to build and deflate. Bounded: at most MAX_ENTRIES strings in MAX_BYTES; once
 * full, texts go inline as before. Only texts copied as they are (no escaping, no formula mark,
 * no space at either end) are taken, so an entry's bytes are its XML as well.
 *
 * Keys are the field's bytes, never strings: a hash over them, taken a 32-bit word at a time
 * (murmur3's steps), picks a slot in an open-addressing table (kept at most half full: it
 * doubles), and the bytes are compared, a word at a time too, when the whole hash matches.
 */

export interface SharedStringsTable {
  /**
   * The index of the bytes `b[s..e)`; when new, added if `mayAdd` and there is room (`added`
   * tells). -1: not in the table and not added.
   */
  lookup(b: Uint8Array, s: number, e: number, mayAdd: boolean): number;
  /**
   * `lookup` of bytes `s..e` of a DataView (the converter reads its batch through one); when
   * found or added, `cellAt` tells where its cell is in `view`.
   */
  find(v: DataView, s: number, e: number, mayAdd: boolean): number;
  /**
   * The entries' memory. At `cellAt`, the last entry found's cell (`<c t="s"><v>12</v></c>`):
   * its length in a byte, then its bytes, made when the entry was added (digits cost divisions),
   * then only copied. A new DataView when the memory grows.
   */
  readonly view: DataView;
  readonly cellAt: number;
  /** Whether the last lookup added its bytes. */
  readonly added: boolean;
  readonly size: number;
  /** The part's XML; `references`: how many cells use the table. */
  xml(references: number): Buffer;
}

const MAX_ENTRIES = 1 << 17;
/** Bytes of texts the table holds at most. */
const MAX_BYTES = 16 << 20;
/** Slots to start with; twice the entries at least, so probes stay short. */
const FIRST_SLOTS = 1 << 12;
/** Room per entry besides its text: its length (4 bytes), its cell's length and cell. */
const ENTRY_ROOM = 4 + 1 + 31;
const HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';

/**
 * Lookups land anywhere in the table (a ledger's users in no order), so each touches as few
 * cache lines as can be: a slot holds the entry's hash and where it starts in the memory, and
 * there the text's length, its bytes and its cell follow each other.
 */
export class SharedStrings implements SharedStringsTable {
  added: boolean;
  size: number;
  view: DataView;
  cellAt: number;
  /** Per slot: the hash, and where its entry starts in `memory` + 1 (0: free). */
  private slots: Int32Array;
  /** Where each entry starts, in order (for the part's XML). */
  private readonly starts: Int32Array;
  private memory: Uint8Array;
  private used: number;
  private textBytes: number;

  constructor() {
    this.added = false;
    this.size = 0;
    this.cellAt = 0;
    this.slots = new Int32Array(2 * FIRST_SLOTS);
    this.starts = new Int32Array(MAX_ENTRIES);
    this.memory = new Uint8Array(1 << 20);
    this.view = new DataView(this.memory.buffer);
    this.used = 0;
    this.textBytes = 0;
  }

  lookup(b: Uint8Array, s: number, e: number, mayAdd: boolean): number {
    return this.find(new DataView(b.buffer, b.byteOffset, b.byteLength), s, e, mayAdd);
  }

  find(v: DataView, s: number, e: number, mayAdd: boolean): number {
    this.added = false;
    const n = e - s;
    const h = this.hash(v, s, e);
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    let slot = h & mask;
    for (;;) {
      const at = slots[2 * slot + 1]! - 1;
      if (at < 0) break;
      if (slots[2 * slot] === h && this.same(at, v, s, n)) {
        this.cellAt = at + 4 + n;
        return this.view.getInt32(at + 4 + n + 32, true);
      }
      slot = (slot + 1) & mask;
    }
    if (!mayAdd || this.size >= MAX_ENTRIES || this.textBytes + n > MAX_BYTES) return -1;
    const entry = this.size++;
    const at = this.used;
    this.room(n + ENTRY_ROOM + 4);
    const m = this.memory;
    const view = this.view;
    view.setInt32(at, n, true);
    m.set(new Uint8Array(v.buffer, v.byteOffset + s, n), at + 4);
    const cell = Buffer.from(`<c t="s"><v>${entry}</v></c>`, 'latin1');
    m[at + 4 + n] = cell.length;
    m.set(cell, at + 4 + n + 1);
    view.setInt32(at + 4 + n + 32, entry, true);
    this.used = at + 4 + n + 32 + 4;
    this.textBytes += n;
    this.starts[entry] = at;
    slots[2 * slot] = h;
    slots[2 * slot + 1] = at + 1;
    this.cellAt = at + 4 + n;
    this.added = true;
    if (2 * this.size > mask) this.grow();
    return entry;
  }

  xml(references: number): Buffer {
    const parts: Buffer[] = [
      Buffer.from(`${HEAD} count="${references}" uniqueCount="${this.size}">`, 'latin1'),
    ];
    const open = Buffer.from('<si><t>', 'latin1');
    const close = Buffer.from('</t></si>', 'latin1');
    for (let i = 0; i < this.size; i++) {
      const at = this.starts[i]!;
      const n = this.view.getInt32(at, true);
      parts.push(open, Buffer.from(this.memory.subarray(at + 4, at + 4 + n)), close);
    }
    parts.push(Buffer.from('</sst>', 'latin1'));
    return Buffer.concat(parts);
  }

  private room(n: number): void {
    if (this.used + n <= this.memory.length) return;
    const bigger = new Uint8Array(Math.max(this.memory.length * 2, this.used + n));
    bigger.set(this.memory.subarray(0, this.used));
    this.memory = bigger;
    this.view = new DataView(bigger.buffer);
  }

  /** Twice the slots, every entry placed again by its hash. */
  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i + 1] === 0) continue;
      let slot = old[i]! & mask;
      while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = old[i]!;
      slots[2 * slot + 1] = old[i + 1]!;
    }
    this.slots = slots;
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

  /** Whether the entry at `at` holds the `n` bytes of `v` from `s`. */
  private same(at: number, v: DataView, s: number, n: number): boolean {
    const a = this.view;
    if (a.getInt32(at, true) !== n) return false;
    const k = at + 4;
    if (n < 4) {
      for (let i = 0; i < n; i++) if (a.getUint8(k + i) !== v.getUint8(s + i)) return false;
      return true;
    }
    for (let i = 0; i < n - 4; i += 4) {
      if (a.getInt32(k + i, true) !== v.getInt32(s + i, true)) return false;
    }
    return a.getInt32(k + n - 4, true) === v.getInt32(s + n - 4, true);
  }
}
