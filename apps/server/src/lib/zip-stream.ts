import { once } from 'node:events';
import { PassThrough, Readable, Transform, type Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { createDeflateRaw, crc32 } from 'node:zlib';
import { Zip, type ZipInputFile } from 'fflate';

/**
 * A ZIP archive streamed to `out`: the server's one zip writer (campaign downloads, every
 * workbook, the backup). fflate's streaming `Zip` writes the format (headers, data descriptors,
 * central directory); each entry's bytes are deflated by node's zlib on the libuv pool and
 * their CRC-32 taken by zlib's native `crc32`, and handed to fflate as an entry of its public
 * `ZipInputFile` kind (compression 8, size and CRC set before the last chunk). fflate's own
 * deflate and CRC are JavaScript on this thread; for the backup's rate (docs/performance.md,
 * backup rate) this thread must only move bytes. Entries are written one after another, one
 * input open at a time, and the output's backpressure reaches the input.
 *
 * fflate writes no ZIP64, so an archive or an entry past 4 GiB, or past 65,535 entries, fails
 * with a clear error rather than a corrupt file (docs/operations.md, Backups).
 *
 * When `out` closes early (the client left) or an input fails, every pending write and
 * `finish()` reject with that error and each input is destroyed (its file closed, its generator
 * returned), so nothing hangs and nothing leaks.
 */

export interface ZipEntryOptions {
  /** Deflate level: 1 suits media that is already compressed (little gain for much CPU). */
  compressionLevel?: number;
  /** How much an entry written in pieces may hold before its writes wait (default 16 KiB). */
  bufferBytes?: number;
}

/** An entry written piece by piece; pieces wait while the archive is behind. */
export interface ZipEntrySink {
  write(chunk: string | Buffer): Promise<void>;
  /** Ends the entry; the next one may start. */
  end(): void;
}

/** The most a ZIP without ZIP64 holds: bytes of an entry or of the archive, and entries. */
export const ZIP32_LIMITS = { bytes: 0xffff_ffff, entries: 0xffff };
export const ZIP_TOO_BIG =
  'The archive would pass 4 GiB, more than a ZIP file without ZIP64 holds.';
export const ZIP_TOO_MANY = 'The archive would hold more than 65,535 files.';

export class ZipStream {
  private readonly zip: Zip;
  private readonly abort = new AbortController();
  private readonly inputs = new Set<Readable>();
  private readonly ended: Promise<void>;
  /** The entries, written one after another. */
  private queue: Promise<void> = Promise.resolve();
  private entries = 0;
  private written = 0;

  /** `limits`: ZIP32_LIMITS; tests lower them to see them hold without writing 4 GiB. */
  constructor(
    private readonly out: Writable,
    private readonly limits = ZIP32_LIMITS,
  ) {
    this.zip = new Zip((err, chunk, final) => {
      if (err) return this.fail(err);
      if (this.abort.signal.aborted) return;
      this.written += chunk.length;
      if (this.written > this.limits.bytes) return this.fail(new Error(ZIP_TOO_BIG));
      out.write(chunk);
      if (final) out.end();
    });
    this.ended = finished(out).then(
      () => this.abort.signal.throwIfAborted(),
      (err: unknown) => {
        this.fail(err);
        this.abort.signal.throwIfAborted();
      },
    );
    // Awaited by finish(); until then a failure must not count as unhandled.
    this.ended.catch(() => {});
  }

  /** A small entry given whole. */
  addBuffer(name: string, data: string | Buffer, options: ZipEntryOptions = {}): void {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.addStream(name, () => Readable.from([bytes]), options);
  }

  /** An entry read from a stream, opened only when its turn comes. */
  addStream(name: string, open: () => Readable, options: ZipEntryOptions = {}): void {
    this.enqueue(name, options, () => this.track(open()));
  }

  /** An entry the caller writes itself, in pieces. */
  openEntry(name: string, options: ZipEntryOptions = {}): ZipEntrySink {
    const { bufferBytes, ...zipOptions } = options;
    const sink = this.track(new PassThrough(bufferBytes ? { highWaterMark: bufferBytes } : {}));
    this.enqueue(name, zipOptions, () => sink);
    const { signal } = this.abort;
    return {
      write: async (chunk) => {
        signal.throwIfAborted();
        if (sink.write(chunk)) return;
        try {
          await once(sink, 'drain', { signal });
        } catch (err) {
          signal.throwIfAborted();
          throw err;
        }
      },
      end: () => {
        signal.throwIfAborted();
        sink.end();
      },
    };
  }

  /** Writes the central directory; resolves once `out` has taken every byte. */
  async finish(): Promise<void> {
    this.abort.signal.throwIfAborted();
    await this.queue;
    this.abort.signal.throwIfAborted();
    this.zip.end();
    await this.ended;
  }

  private enqueue(name: string, options: ZipEntryOptions, open: () => Readable): void {
    this.abort.signal.throwIfAborted();
    if (++this.entries > this.limits.entries) throw new Error(ZIP_TOO_MANY);
    this.queue = this.queue.then(async () => {
      if (this.abort.signal.aborted) return;
      try {
        await this.writeEntry(name, open(), options.compressionLevel);
      } catch (err) {
        this.fail(err);
      }
    });
  }

  /** Deflates `input` into the archive as the entry `name`. */
  private async writeEntry(
    name: string,
    input: Readable,
    level: number | undefined,
  ): Promise<void> {
    const { signal } = this.abort;
    const file: ZipInputFile = { filename: name, size: 0, crc: 0, compression: 8 };
    this.zip.add(file);
    // fflate sends an entry's header with its first bytes: an empty piece sends it now, so a
    // download starts (its response headers go) before the first slow query has answered.
    file.ondata!(null, new Uint8Array(0), false);
    let crc = 0;
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        crc = crc32(chunk, crc);
        size += chunk.length;
        done(null, chunk);
      },
    });
    const deflate = createDeflateRaw(level === undefined ? {} : { level });
    await pipeline(
      input,
      measure,
      deflate,
      // zlib's output is plain memory of its own (never a SharedArrayBuffer).
      async (deflated: AsyncIterable<Buffer<ArrayBuffer>>) => {
        for await (const chunk of deflated) {
          file.ondata!(null, chunk, false);
          if (this.out.writableNeedDrain) await once(this.out, 'drain', { signal });
        }
      },
      { signal },
    );
    if (size > this.limits.bytes) throw new Error(ZIP_TOO_BIG);
    file.size = size;
    file.crc = crc;
    file.ondata!(null, new Uint8Array(0), true);
  }

  private track<T extends Readable>(input: T): T {
    this.inputs.add(input);
    input.on('error', (err) => this.fail(err));
    input.once('close', () => this.inputs.delete(input));
    return input;
  }

  private fail(err: unknown): void {
    if (this.abort.signal.aborted) return;
    this.abort.abort(err instanceof Error ? err : new Error(String(err)));
    this.zip.terminate();
    for (const input of this.inputs) input.destroy();
  }
}
