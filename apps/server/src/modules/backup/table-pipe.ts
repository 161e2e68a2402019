import type { Readable } from 'node:stream';
import { XLSX_MAX_ROWS } from '../../lib/xlsx-writer.js';
import { headerEnd, INCOMPLETE, TRAILER, tupleEnd } from './copy-binary.js';
import type { CopyXmlWorker } from './copy-worker.js';

/**
 * One table's rows on their way from COPY to the sheet. The binary COPY stream (copy-binary.ts),
 * in chunks cut anywhere, is copied into batches of about BATCH_BYTES as it comes (one message
 * to the worker per batch, not per chunk); each batch is walked tuple by tuple as it fills, so
 * it goes to the worker holding whole rows only, with their count, and the bytes of a row cut
 * by the chunk's end start the next batch. The header and the trailer stay here. At most
 * MAX_IN_FLIGHT batches are with the worker at once, and their XML is written in order.
 * The sheet limit is planned here, before conversion: a batch never spans two sheets, and the
 * first batch of a new sheet says so (its writer starts the sheet and its header first).
 */

/** Bytes of tuples per batch sent to the worker. */
export const BATCH_BYTES = 256 * 1024;
/** Memory a batch is gathered in: room for a batch and one more chunk. */
const BATCH_MEMORY = 2 * BATCH_BYTES;
/**
 * Batches the worker may hold (converting) or have answered before the oldest is written:
 * enough that conversion never waits for the output's jitter on a busy machine, at about a
 * megabyte each.
 */
export const MAX_IN_FLIGHT = 8;

/** Writes a batch's XML: `rows` rows; `newSheet`: start the next sheet first. */
export type BatchWriter = (xml: Buffer, rows: number, newSheet: boolean) => Promise<void>;

/** What the pipe needs of the worker (copy-worker.ts): memory for batches, and their XML. */
export type BatchConverter = Pick<CopyXmlWorker, 'batchBuffer' | 'convert'>;

interface InFlight {
  xml: Promise<Buffer>;
  rows: number;
  newSheet: boolean;
}

export class TablePipe {
  /** The batch being gathered: memory of its own (handed over to the worker when sent). */
  private batch: Uint8Array | null = null;
  /** Bytes in `batch`; where its last whole tuple ends; how many whole tuples it holds. */
  private bytes = 0;
  private whole = 0;
  private rows = 0;
  /** Whether the stream's header is still to come, and whether its trailer came. */
  private header = true;
  private ended = false;
  /** Rows the current sheet will hold once every batch so far is written (its header too). */
  private planned = 1;
  private newSheet = false;
  private readonly inFlight: InFlight[] = [];
  /** The writes, one after another, in order (room() and end() may both be writing). */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly worker: BatchConverter,
    private readonly write: BatchWriter,
  ) {}

  /**
   * Reads a table's binary COPY (pg-copy-streams' `to()` on the client) to its end: each chunk
   * into the batches, and no further chunk while too many batches are in flight (the stream
   * then stops reading the connection). Rejects when the COPY fails.
   */
  async read(copy: Readable): Promise<void> {
    for await (const chunk of copy as AsyncIterable<Buffer>) {
      this.take(chunk);
      if (this.full) await this.room();
    }
    await this.end();
  }

  /** Copies a chunk of the COPY stream into batches (the chunk is not kept). */
  take(chunk: Uint8Array): void {
    let c = chunk;
    while (c.length > 0) {
      if (this.ended) throw new Error('COPY: bytes after the trailer');
      this.batch ??= this.worker.batchBuffer(BATCH_MEMORY);
      if (this.bytes === this.batch.length) {
        // Full: its whole rows go (their tail starts the next batch), or a row longer than the
        // memory moves into more.
        if (this.rows > 0) this.send();
        else this.grow();
        continue;
      }
      const n = Math.min(c.length, this.batch.length - this.bytes);
      this.batch.set(c.subarray(0, n), this.bytes);
      this.bytes += n;
      c = c.subarray(n);
      this.scan();
      if (this.whole >= BATCH_BYTES) this.send();
    }
  }

  /** Whether more batches are in flight than MAX_IN_FLIGHT: take no more until room(). */
  get full(): boolean {
    return this.inFlight.length > MAX_IN_FLIGHT;
  }

  /** Writes the oldest batches until no more than MAX_IN_FLIGHT are in flight. */
  async room(): Promise<void> {
    while (this.inFlight.length > MAX_IN_FLIGHT) await this.writeOldest();
  }

  /** After the stream's last chunk: sends what is gathered and writes every batch in flight. */
  async end(): Promise<void> {
    if (!this.ended) throw new Error('COPY: the stream ended before its trailer');
    this.send();
    while (this.inFlight.length > 0) await this.writeOldest();
  }

  /** Walks the whole tuples gathered since the last; past a sheet's last row, sends them. */
  private scan(): void {
    if (this.header) {
      const end = headerEnd(this.batch!, this.bytes);
      if (end === INCOMPLETE) return;
      this.header = false;
      this.batch!.copyWithin(0, end, this.bytes);
      this.bytes -= end;
    }
    for (;;) {
      const end = tupleEnd(this.batch!, this.whole, this.bytes);
      if (end === INCOMPLETE) return;
      if (end === TRAILER) {
        if (this.bytes !== this.whole + 2) throw new Error('COPY: bytes after the trailer');
        this.ended = true;
        this.bytes = this.whole;
        return;
      }
      this.whole = end;
      this.rows++;
      if (++this.planned === XLSX_MAX_ROWS) {
        // The sheet is full: what is gathered goes, and the rows after start the next sheet.
        this.send();
        this.newSheet = true;
        this.planned = 1;
      }
    }
  }

  /** Sends the whole tuples gathered; the bytes after them start the next batch. */
  private send(): void {
    if (this.rows === 0) return;
    const batch = this.batch!;
    const tail = this.bytes - this.whole;
    const next = tail > 0 ? this.worker.batchBuffer(Math.max(BATCH_MEMORY, 2 * tail)) : null;
    next?.set(batch.subarray(this.whole, this.bytes));
    this.inFlight.push({
      xml: this.worker.convert(batch.subarray(0, this.whole), this.rows),
      rows: this.rows,
      newSheet: this.newSheet,
    });
    this.batch = next;
    this.bytes = tail;
    this.whole = 0;
    this.rows = 0;
    this.newSheet = false;
  }

  /** Twice the memory for the batch (a row longer than it). */
  private grow(): void {
    const bigger = this.worker.batchBuffer(2 * this.batch!.length);
    bigger.set(this.batch!.subarray(0, this.bytes));
    this.batch = bigger;
  }

  private writeOldest(): Promise<void> {
    this.writing = this.writing.then(async () => {
      const batch = this.inFlight.shift();
      if (batch) await this.write(await batch.xml, batch.rows, batch.newSheet);
    });
    return this.writing;
  }
}
