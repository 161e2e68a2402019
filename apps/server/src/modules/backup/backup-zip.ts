import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import zlib from 'node:zlib';

/**
 * Own code, for the backup's rate target (at least half the rate of a raw COPY of the same
 * tables): a ZIP writer for entries given already deflated. yazl (lib/zip-stream.ts) deflates
 * what it is given on this thread's streams, so every byte of a backup's sheet XML (1.3 GB for
 * 4M rows) passed through the main thread, its CRC-32, its zlib stream and its garbage collector:
 * half of the main thread's time and most of its GC. Here the conversion worker deflates its own
 * batches (copy-worker.ts) and this thread only writes compressed bytes with the ZIP framing.
 *
 * An entry is a run of pieces, each a raw deflate stream of its own flushed with Z_SYNC_FLUSH
 * (so it ends on a byte boundary, without a final block), as pigz joins them; `endEntry` adds a
 * last piece ending with a final block. Each piece brings the running CRC-32 of its entry up to
 * its end. The format follows yazl's choices (sizes in a data descriptor after the data, ZIP64
 * records only when a size, an offset or the entry count needs them), so readers see the same
 * kind of archive. When `out` fails or closes early, the pending write and every later call
 * reject with that error.
 */

/** A piece of an entry: raw deflate data, the bytes it inflates to, the entry's CRC-32 so far. */
export interface Packed {
  data: Uint8Array;
  size: number;
  crc: number;
}

/** Deflates `bytes` as a piece whose CRC-32 continues from `crc`; `last` ends the stream. */
export function pack(bytes: Uint8Array, crc = 0, last = false): Packed {
  const data = zlib.deflateRawSync(bytes, {
    level: 1,
    finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH,
  });
  return { data, size: bytes.length, crc: zlib.crc32(bytes, crc) };
}

const MAX32 = 0xffffffff;
const VERSION_MADE_BY = (3 << 8) | 63; // unix, spec 6.3
const VERSION_PLAIN = 20;
const VERSION_ZIP64 = 45;
/** UTF-8 names; CRC-32 and sizes in a data descriptor after the data. */
const FLAGS = (1 << 11) | (1 << 3);
const DEFLATE = 8;

interface Entry {
  name: Buffer;
  offset: number;
  crc: number;
  size: number;
  compressed: number;
}

function u64(b: Buffer, n: number, at: number): void {
  b.writeUInt32LE(n % 0x100000000, at);
  b.writeUInt32LE(Math.floor(n / 0x100000000), at + 4);
}

/** DOS date and time of `d` (local fields, as yazl writes them), within 1980-2107. */
function dosTime(d: Date): { date: number; time: number } {
  const year = Math.min(Math.max(d.getFullYear(), 1980), 2107);
  return {
    date: (d.getDate() & 0x1f) | (((d.getMonth() + 1) & 0xf) << 5) | ((year - 1980) << 9),
    time: (d.getSeconds() >> 1) | (d.getMinutes() << 5) | (d.getHours() << 11),
  };
}

export class PackedZip {
  private readonly entries: Entry[] = [];
  private current: Entry | null = null;
  private offset = 0;
  private failure: Error | null = null;
  private readonly abort = new AbortController();
  /** Set once finish() ends `out` itself: an end before that is an early close. */
  private closing = false;
  private readonly ended: Promise<void>;
  private readonly stamp: { date: number; time: number };

  private readonly zip64Above: number;

  /** `zip64Above`: sizes and offsets past it take ZIP64 records (lowered by tests). */
  constructor(
    private readonly out: Writable,
    { now = new Date(), zip64Above = MAX32 - 1 }: { now?: Date; zip64Above?: number } = {},
  ) {
    this.stamp = dosTime(now);
    this.zip64Above = zip64Above;
    this.ended = finished(out).then(
      () => {
        if (!this.closing) this.fail(new Error('the backup output closed early'));
      },
      (err: unknown) => this.fail(err),
    );
    // Awaited by finish(); until then a failure must not count as unhandled.
    this.ended.catch(() => {});
  }

  /** Starts an entry (the one before must have ended). */
  async startEntry(name: string): Promise<void> {
    if (this.current) throw new Error('zip: an entry is still open');
    const entry: Entry = {
      name: Buffer.from(name, 'utf8'),
      offset: this.offset,
      crc: 0,
      size: 0,
      compressed: 0,
    };
    this.current = entry;
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(VERSION_PLAIN, 4);
    head.writeUInt16LE(FLAGS, 6);
    head.writeUInt16LE(DEFLATE, 8);
    head.writeUInt16LE(this.stamp.time, 10);
    head.writeUInt16LE(this.stamp.date, 12);
    // CRC-32 and sizes (14..25) stay 0: the data descriptor holds them.
    head.writeUInt16LE(entry.name.length, 26);
    this.entries.push(entry);
    await this.put(Buffer.concat([head, entry.name]));
  }

  /**
   * Appends a piece of the open entry. `written` is called once `out` has written its bytes (not
   * on failure): their memory may serve again.
   */
  async write(piece: Packed, written?: () => void): Promise<void> {
    const entry = this.current;
    if (!entry) throw new Error('zip: no entry is open');
    entry.crc = piece.crc;
    entry.size += piece.size;
    entry.compressed += piece.data.length;
    await this.put(piece.data, written);
  }

  /** Ends the open entry with `tail` (may be empty) and the deflate stream's final block. */
  async endEntry(tail: Uint8Array = new Uint8Array(0)): Promise<void> {
    const entry = this.current;
    if (!entry) throw new Error('zip: no entry is open');
    await this.write(pack(tail, entry.crc, true));
    this.current = null;
    const zip64 = entry.size > this.zip64Above || entry.compressed > this.zip64Above;
    const d = Buffer.alloc(zip64 ? 24 : 16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(entry.crc, 4);
    if (zip64) {
      u64(d, entry.compressed, 8);
      u64(d, entry.size, 16);
    } else {
      d.writeUInt32LE(entry.compressed, 8);
      d.writeUInt32LE(entry.size, 12);
    }
    await this.put(d);
  }

  /** A whole entry given at once. */
  async addFile(name: string, data: string | Uint8Array): Promise<void> {
    await this.startEntry(name);
    await this.endEntry(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  /** Writes the central directory, ends `out`; resolves once `out` has taken every byte. */
  async finish(): Promise<void> {
    if (this.current) throw new Error('zip: an entry is still open');
    const start = this.offset;
    const records: Buffer[] = [];
    for (const e of this.entries) {
      const limit = this.zip64Above;
      const zip64 = e.size > limit || e.compressed > limit || e.offset > limit;
      const r = Buffer.alloc(46 + (zip64 ? 28 : 0));
      r.writeUInt32LE(0x02014b50, 0);
      r.writeUInt16LE(VERSION_MADE_BY, 4);
      r.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_PLAIN, 6);
      r.writeUInt16LE(FLAGS, 8);
      r.writeUInt16LE(DEFLATE, 10);
      r.writeUInt16LE(this.stamp.time, 12);
      r.writeUInt16LE(this.stamp.date, 14);
      r.writeUInt32LE(e.crc, 16);
      r.writeUInt32LE(zip64 ? MAX32 : e.compressed, 20);
      r.writeUInt32LE(zip64 ? MAX32 : e.size, 24);
      r.writeUInt16LE(e.name.length, 28);
      r.writeUInt16LE(zip64 ? 28 : 0, 30);
      // comment length, disk number, internal attributes: 0
      r.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
      r.writeUInt32LE(zip64 ? MAX32 : e.offset, 42);
      if (zip64) {
        r.writeUInt16LE(0x0001, 46);
        r.writeUInt16LE(24, 48);
        u64(r, e.size, 50);
        u64(r, e.compressed, 58);
        u64(r, e.offset, 66);
      }
      records.push(r.subarray(0, 46), e.name, r.subarray(46));
    }
    const directory = Buffer.concat(records);
    const count = this.entries.length;
    const zip64 = count >= 0xffff || start > this.zip64Above || directory.length > this.zip64Above;
    const tail: Buffer[] = [directory];
    if (zip64) {
      const z = Buffer.alloc(56 + 20);
      z.writeUInt32LE(0x06064b50, 0);
      u64(z, 44, 4);
      z.writeUInt16LE(VERSION_MADE_BY, 12);
      z.writeUInt16LE(VERSION_ZIP64, 14);
      u64(z, count, 24);
      u64(z, count, 32);
      u64(z, directory.length, 40);
      u64(z, start, 48);
      // The locator: where the ZIP64 end record starts.
      z.writeUInt32LE(0x07064b50, 56);
      u64(z, start + directory.length, 64);
      z.writeUInt32LE(1, 72);
      tail.push(z);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(zip64 ? 0xffff : count, 8);
    end.writeUInt16LE(zip64 ? 0xffff : count, 10);
    end.writeUInt32LE(zip64 ? MAX32 : directory.length, 12);
    end.writeUInt32LE(zip64 ? MAX32 : start, 16);
    tail.push(end);
    await this.put(Buffer.concat(tail));
    this.closing = true;
    this.out.end();
    await this.ended;
    if (this.failure) throw this.failure;
  }

  private async put(b: Uint8Array, written?: () => void): Promise<void> {
    if (this.failure) throw this.failure;
    this.offset += b.length;
    const done = written && ((err?: Error | null) => err || written());
    if (this.out.write(b, done)) return;
    try {
      await once(this.out, 'drain', { signal: this.abort.signal });
    } catch (err) {
      if (this.failure) throw this.failure;
      throw err;
    }
  }

  private fail(err: unknown): void {
    this.failure ??= err instanceof Error ? err : new Error(String(err));
    this.abort.abort(this.failure);
  }
}
