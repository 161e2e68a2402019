import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { isCopySocket, type CopySocket } from './copy-socket.js';

/**
 * A `COPY ... TO STDOUT` whose output is PostgreSQL's CopyData messages as they arrive, frames
 * and all (`d`, length, one row): the backup reads the rows straight out of the socket's bytes.
 * PostgreSQL sends exactly one CopyData message per row, so a frame's length is where its row
 * ends, and nothing has to strip the frames (pg-copy-streams takes each row out into a buffer of
 * its own and joins them again, a sixth of the backup's CPU).
 *
 * Each chunk pushed holds whole CopyData frames only. It takes over the connection's socket the
 * way pg-copy-streams does: from the query until CopyDone, then gives the rest (CommandComplete,
 * ReadyForQuery) back to node-postgres; an ErrorResponse is handed back unread, so node-postgres
 * reports it and the stream fails with it. Backpressure stops reading the socket.
 *
 * On a CopySocket (copy-socket.ts), `copyInto` hands the frames of each read straight to a sink
 * that copies them out at once (the read's memory serves the next read): no stream, no buffer
 * per read; a full sink stops the reads until it has room.
 *
 * A binary COPY (its CopyOutResponse says so) starts its first CopyData message with the file
 * header and ends with a message holding only the trailer (-1 as the field count): the header is
 * taken out of the first frame (its frame starts again after it, written over the header's last
 * bytes) and the trailer's frame is left out, so that every frame passed on is one row.
 */

const COPY_DATA = 0x64; // d
const COPY_DONE = 0x63; // c
const COPY_OUT_RESPONSE = 0x48; // H
const ERROR_RESPONSE = 0x45; // E
/** A binary COPY's header: signature (11 bytes), flags, extension length (then the extension). */
const BINARY_HEADER = 19;

/** The part of node-postgres' Connection a submitted query uses. */
interface PgConnection {
  stream: NodeJS.EventEmitter & {
    read(): Buffer | null;
    pause(): unknown;
    resume(): unknown;
  };
  query(text: string): void;
}

type DataHandler = (chunk: Buffer) => void;

/** Where `copyInto` puts the frames: whole CopyData frames, copied out before `take` returns. */
export interface FrameSink {
  take(frames: Buffer): void;
  /** Whether it takes no more until `room()` resolves. */
  readonly full: boolean;
  room(): Promise<void>;
}

export class CopyFramesQuery extends Readable {
  rowCount = 0;
  private connection: PgConnection | null = null;
  private pgDataHandler: DataHandler | null = null;
  private carry: Buffer | null = null;
  private drained = false;
  private forwarding = false;
  private readonly onReadable = () => this.forward();
  /** Frames go to the sink, read by read (a CopySocket), not through this stream. */
  private direct = false;
  /** Set while a full sink makes room (the socket's reads are stopped meanwhile). */
  private waiting = false;
  /** A binary COPY, and whether its header is still to come. */
  private binary = false;
  private headerPending = false;

  constructor(
    private readonly text: string,
    private readonly sink: FrameSink | null = null,
  ) {
    super({ highWaterMark: 256 * 1024 });
  }

  /** Called by node-postgres when the query's turn comes. */
  submit(connection: PgConnection): void {
    this.connection = connection;
    const stream = connection.stream;
    if (this.sink && isCopySocket(stream)) {
      this.pgDataHandler = (stream.listeners('data') as DataHandler[])[0] ?? null;
      this.direct = true;
      stream.sink = (bytes) => this.fromSocket(stream, bytes);
      connection.query(this.text);
      return;
    }
    const listeners = stream.listeners('data') as DataHandler[];
    if (listeners.length !== 1) throw new Error('COPY: the connection is not idle');
    this.pgDataHandler = listeners[0]!;
    stream.removeListener('data', this.pgDataHandler);
    stream.pause();
    this.forward();
    stream.on('readable', this.onReadable);
    connection.query(this.text);
  }

  override _read(): void {
    this.drained = true;
    this.forward();
  }

  private forward(): void {
    if (this.direct || this.forwarding || !this.drained || !this.connection) return;
    this.forwarding = true;
    let chunk: Buffer | null;
    while (this.drained && this.connection && (chunk = this.connection.stream.read()) !== null) {
      if (!this.parsed(chunk)) this.drained = false;
    }
    this.forwarding = false;
  }

  /** A read of a CopySocket: its frames go to the sink; false stops reading while it is full. */
  private fromSocket(socket: CopySocket, bytes: Buffer): boolean {
    if (!this.parsed(bytes)) return false;
    if (!this.sink!.full || this.waiting) return !this.waiting;
    this.waiting = true;
    this.sink!.room().then(
      () => {
        this.waiting = false;
        socket.resume();
      },
      (err: unknown) => this.destroy(err instanceof Error ? err : new Error(String(err))),
    );
    return false;
  }

  /**
   * `parse`, failing the stream (and reading no more: the connection is left as it is, for its
   * owner to close) when what came is no COPY this can read.
   */
  private parsed(chunk: Buffer): boolean {
    try {
      this.parse(chunk);
      return true;
    } catch (err) {
      this.destroy(err instanceof Error ? err : new Error(String(err)));
      return false;
    }
  }

  /** Pushes the whole CopyData frames of what came so far; keeps a frame cut short. */
  private parse(chunk: Buffer): void {
    let b = chunk;
    const carry = this.carry;
    this.carry = null;
    if (carry) {
      // A row cut short by the last read is joined with its own end only, not with the whole
      // read (a copy of every byte, and a new buffer per read for the GC to follow).
      const need = carry.length >= 5 ? 1 + carry.readUInt32BE(1) - carry.length : -1;
      if (carry[0] === COPY_DATA && need > 0 && need <= chunk.length) {
        const frame = Buffer.concat([carry, chunk.subarray(0, need)]);
        const from = this.binary ? this.binaryFrame(frame, 0, frame.length) : 0;
        if (from < frame.length) {
          this.rowCount++;
          this.pushRun(frame, from, frame.length);
        }
        b = chunk.subarray(need);
      } else b = Buffer.concat([carry, chunk]);
    }
    let p = 0;
    let run = 0; // start of the CopyData frames not pushed yet
    while (p + 5 <= b.length) {
      const code = b[p]!;
      const end = p + 1 + b.readUInt32BE(p + 1);
      if (code === ERROR_RESPONSE) {
        this.pushRun(b, run, p);
        this.detach(b.subarray(p));
        return;
      }
      if (end > b.length) break;
      if (code === COPY_DATA) {
        const from = this.binary ? this.binaryFrame(b, p, end) : p;
        if (from !== p) {
          this.pushRun(b, run, p);
          run = from;
        }
        if (from < end) this.rowCount++;
        p = end;
        continue;
      }
      if (code === COPY_OUT_RESPONSE) {
        this.binary = b[p + 5] === 1;
        this.headerPending = this.binary;
      }
      // Anything else ends a run: CopyOutResponse before the rows, a notice or parameter
      // status between them (skipped), CopyDone after them.
      this.pushRun(b, run, p);
      p = run = end;
      if (code === COPY_DONE) {
        this.detach(b.subarray(p));
        this.push(null);
        return;
      }
    }
    this.pushRun(b, run, p);
    if (p < b.length) this.carry = Buffer.from(b.subarray(p));
  }

  /**
   * Where the binary COPY's frame `p..end` starts once its header is taken out (the header's
   * last 5 bytes become the frame's code and length), or `end` for the trailer's frame.
   */
  private binaryFrame(b: Buffer, p: number, end: number): number {
    let q = p;
    if (this.headerPending) {
      this.headerPending = false;
      const size = end - p - 5;
      if (size < BINARY_HEADER || b.toString('latin1', p + 5, p + 11) !== 'PGCOPY') {
        throw new Error('COPY: a binary COPY without its header');
      }
      q = p + BINARY_HEADER + b.readUInt32BE(p + 5 + 15);
      if (q + 5 > end) throw new Error('COPY: a binary COPY without its header');
      b[q] = COPY_DATA;
      b.writeUInt32BE(end - q - 1, q + 1);
    }
    if (end - q === 7 && b.readInt16BE(q + 5) === -1) return end;
    return q;
  }

  private pushRun(b: Buffer, start: number, end: number): void {
    if (end <= start) return;
    if (this.direct) this.sink!.take(b.subarray(start, end));
    else if (!this.push(b.subarray(start, end))) this.drained = false;
  }

  /** Gives the socket back to node-postgres with the bytes it has to read next. */
  private detach(rest: Buffer): void {
    const connection = this.connection;
    const handler = this.pgDataHandler;
    if (!connection || !handler) return;
    this.connection = null;
    this.pgDataHandler = null;
    const stream = connection.stream;
    if (isCopySocket(stream) && stream.sink) {
      // Its 'data' listener stayed; the bytes are a read's, which the next read overwrites.
      stream.sink = null;
      handler(Buffer.from(rest));
      return;
    }
    connection.stream.removeListener('readable', this.onReadable);
    connection.stream.on('data', handler);
    handler(rest);
    // Resumed on the next tick: the handler may have paused the stream.
    process.nextTick(() => connection.stream.resume());
  }

  /** node-postgres: the COPY failed (an ErrorResponse, or the connection broke). */
  handleError(err: Error): void {
    this.destroy(err);
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {}
}

/** Runs a COPY TO STDOUT on `client`; the stream yields chunks of whole CopyData frames. */
export function copyFrames(client: pg.ClientBase, sql: string): CopyFramesQuery {
  return client.query(
    new CopyFramesQuery(sql) as unknown as pg.QueryConfig,
  ) as unknown as CopyFramesQuery;
}

/**
 * Runs a COPY TO STDOUT on `client` into `sink`: read by read on a CopySocket, else through the
 * stream `copyFrames` gives. Resolves at the COPY's end (the sink may still hold batches).
 */
export async function copyInto(client: pg.ClientBase, sql: string, sink: FrameSink): Promise<void> {
  const stream = (client as unknown as { connection: PgConnection }).connection.stream;
  if (!isCopySocket(stream)) {
    for await (const chunk of copyFrames(client, sql) as AsyncIterable<Buffer>) {
      sink.take(chunk);
      if (sink.full) await sink.room();
    }
    return;
  }
  const query = client.query(
    new CopyFramesQuery(sql, sink) as unknown as pg.QueryConfig,
  ) as unknown as CopyFramesQuery;
  query.resume();
  await finished(query);
}

/**
 * Walks up to `maxRows` whole CopyData frames from the start of `b`: how many, and the offset
 * just past the last (the length of `b` when every frame in it was counted).
 */
export function framesIn(b: Buffer, maxRows: number): { rows: number; end: number } {
  let p = 0;
  let rows = 0;
  while (rows < maxRows && p + 5 <= b.length) {
    const end = p + 1 + b.readUInt32BE(p + 1);
    if (end > b.length) break;
    p = end;
    rows++;
  }
  return { rows, end: p };
}
