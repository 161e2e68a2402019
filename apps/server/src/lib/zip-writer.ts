import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/**
 * A streaming ZIP writer over node:zlib (deflate runs on the libuv pool, off the event loop).
 * Small files are compressed at once; large ones are streamed in chunks with a data descriptor
 * after them, so memory stays bounded whatever the size. Backpressure from the output is
 * honoured, and when the output closes early every pending write rejects instead of hanging.
 * No ZIP64: an archive past 4 GiB or 65,535 files is refused with an error.
 */

const MAX32 = 0xffffffff;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const DEFLATE = 8;
const VERSION = 20;

interface Entry {
  name: Buffer;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** One file being streamed into the archive. */
export interface ZipFileSink {
  write(chunk: string | Buffer): Promise<void>;
  /** Ends the file; the next file may then start. */
  close(): Promise<void>;
}

export class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];
  private readonly abort = new AbortController();
  private readonly dosTime: number;
  private readonly dosDate: number;
  private busy = false;

  constructor(
    private readonly out: Writable,
    private readonly level = 6,
    now = new Date(),
  ) {
    const gone = () => this.abort.abort(new Error('The output closed before the archive ended.'));
    out.once('close', gone);
    out.once('error', gone);
    this.dosTime = (now.getHours() << 11) | (now.getMinutes() << 5) | (now.getSeconds() >> 1);
    this.dosDate =
      ((Math.max(now.getFullYear(), 1980) - 1980) << 9) |
      ((now.getMonth() + 1) << 5) |
      now.getDate();
  }

  /** Adds a small file, compressed in one go. */
  async addFile(name: string, data: string | Buffer): Promise<void> {
    this.claim();
    const raw = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const body = deflateRawSync(raw, { level: this.level });
    const entry = this.entry(name, FLAG_UTF8);
    Object.assign(entry, { crc: crc32(raw), compressed: body.length, size: raw.length });
    await this.emit(this.localHeader(entry));
    await this.emit(body);
    this.done(entry);
  }

  /**
   * Starts a file whose content is streamed: write it in chunks, then close it. `level`
   * overrides the archive's deflate level for this file (1 suits media that is already
   * compressed: little gain is worth much CPU there).
   */
  async openFile(name: string, options: { level?: number } = {}): Promise<ZipFileSink> {
    this.claim();
    const entry = this.entry(name, FLAG_UTF8 | FLAG_DESCRIPTOR);
    await this.emit(this.localHeader(entry));
    const { signal } = this.abort;
    const deflate = createDeflateRaw({ level: options.level ?? this.level });
    // Pending waits reject through the signal; the deflate stream is only released.
    const onAbort = () => deflate.destroy();
    signal.addEventListener('abort', onAbort, { once: true });
    deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      this.offset += chunk.length;
    });
    deflate.pipe(this.out, { end: false });
    return {
      write: async (chunk) => {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        if (buf.length === 0) return;
        signal.throwIfAborted();
        entry.crc = crc32(buf, entry.crc);
        entry.size += buf.length;
        if (!deflate.write(buf)) await once(deflate, 'drain', { signal });
      },
      close: async () => {
        signal.throwIfAborted();
        const ended = once(deflate, 'end', { signal });
        deflate.end();
        await ended;
        deflate.unpipe(this.out);
        signal.removeEventListener('abort', onAbort);
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(0x08074b50, 0);
        descriptor.writeUInt32LE(entry.crc, 4);
        descriptor.writeUInt32LE(this.fits(entry.compressed), 8);
        descriptor.writeUInt32LE(this.fits(entry.size), 12);
        await this.emit(descriptor);
        this.done(entry);
      },
    };
  }

  /** Writes the central directory and ends the output. */
  async finish(): Promise<void> {
    this.claim();
    if (this.entries.length > 0xffff) throw new Error('Too many files for a ZIP archive.');
    const start = this.offset;
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(VERSION, 4);
      h.writeUInt16LE(VERSION, 6);
      this.common(h, 8, e, true);
      h.writeUInt32LE(this.fits(e.offset), 42);
      await this.emit(Buffer.concat([h, e.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.fits(this.offset - start), 12);
    end.writeUInt32LE(this.fits(start), 16);
    await this.emit(end);
    this.out.end();
  }

  private claim(): void {
    this.abort.signal.throwIfAborted();
    if (this.busy) throw new Error('A file of this archive is still open.');
    this.busy = true;
  }

  private entry(name: string, flags: number): Entry {
    const entry = { name: Buffer.from(name, 'utf8'), flags, crc: 0, compressed: 0, size: 0 };
    return { ...entry, offset: this.fits(this.offset) };
  }

  private done(entry: Entry): void {
    this.entries.push(entry);
    this.busy = false;
  }

  private fits(n: number): number {
    if (n > MAX32) throw new Error('The archive is too large (over 4 GiB).');
    return n;
  }

  /** Flags … name length: the part local and central headers share, written at `at`. */
  private common(h: Buffer, at: number, e: Entry, known: boolean): void {
    h.writeUInt16LE(e.flags, at);
    h.writeUInt16LE(DEFLATE, at + 2);
    h.writeUInt16LE(this.dosTime, at + 4);
    h.writeUInt16LE(this.dosDate, at + 6);
    h.writeUInt32LE(known ? e.crc : 0, at + 8);
    h.writeUInt32LE(known ? this.fits(e.compressed) : 0, at + 12);
    h.writeUInt32LE(known ? this.fits(e.size) : 0, at + 16);
    h.writeUInt16LE(e.name.length, at + 20);
  }

  private localHeader(e: Entry): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(VERSION, 4);
    // A streamed file's CRC and sizes are not known yet: its data descriptor carries them.
    this.common(h, 6, e, (e.flags & FLAG_DESCRIPTOR) === 0);
    return Buffer.concat([h, e.name]);
  }

  private async emit(buf: Buffer): Promise<void> {
    const { signal } = this.abort;
    signal.throwIfAborted();
    this.offset += buf.length;
    if (!this.out.write(buf)) await once(this.out, 'drain', { signal });
  }
}
