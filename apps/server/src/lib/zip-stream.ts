import { once } from 'node:events';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';

/**
 * A ZIP archive streamed to `out` by yazl, which writes the format (ZIP64 past 4 GiB or 65,535
 * files, deflate on the libuv pool) and reads each entry's stream only when the entry before it
 * is done, so one input is open at a time and the output's backpressure reaches it.
 *
 * What yazl leaves to its caller is added here: when `out` closes early (the client left) or an
 * input fails, every pending write and `finish()` reject with that error and each input is
 * destroyed (its file closed, its generator returned), so nothing hangs and nothing leaks.
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

export class ZipStream {
  private readonly zip = new ZipFile();
  private readonly abort = new AbortController();
  private readonly inputs = new Set<Readable>();
  private readonly ended: Promise<void>;

  constructor(private readonly out: Writable) {
    this.zip.on('error', (err: unknown) => this.fail(err));
    this.zip.outputStream.pipe(out);
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
    this.abort.signal.throwIfAborted();
    this.zip.addBuffer(typeof data === 'string' ? Buffer.from(data, 'utf8') : data, name, options);
  }

  /** An entry read from a stream, opened only when its turn comes. */
  addStream(name: string, open: () => Readable, options: ZipEntryOptions = {}): void {
    this.abort.signal.throwIfAborted();
    this.zip.addReadStreamLazy(name, options, (cb) => {
      if (this.abort.signal.aborted) return;
      const input = open();
      this.track(input);
      cb(null, input);
    });
  }

  /** An entry the caller writes itself, in pieces. */
  openEntry(name: string, options: ZipEntryOptions = {}): ZipEntrySink {
    this.abort.signal.throwIfAborted();
    const { bufferBytes, ...zipOptions } = options;
    const sink = new PassThrough(bufferBytes ? { highWaterMark: bufferBytes } : {});
    this.track(sink);
    this.zip.addReadStream(sink, name, zipOptions);
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
    this.zip.end();
    await this.ended;
  }

  private track(input: Readable): void {
    this.inputs.add(input);
    input.on('error', (err) => this.fail(err));
    input.once('close', () => this.inputs.delete(input));
  }

  private fail(err: unknown): void {
    if (this.abort.signal.aborted) return;
    this.abort.abort(err instanceof Error ? err : new Error(String(err)));
    this.zip.outputStream.unpipe(this.out);
    for (const input of this.inputs) input.destroy();
  }
}
