import { XLSX_MAX_ROWS } from '../../lib/xlsx-writer.js';
import { framesIn, type FrameSink } from './copy-frames.js';
import type { Packed } from './backup-zip.js';
import type { CopyXmlWorker } from './copy-worker.js';

/**
 * One table's rows on their way from COPY to the sheet: chunks of CopyData frames are copied
 * into batches of about BATCH_BYTES as they come (one message to the worker per batch, not per
 * socket read; a chunk is not kept, so a socket's read memory serves its next read),
 * at most MAX_IN_FLIGHT batches are with the worker at once, and their XML is written in order.
 * The sheet limit is planned here, before conversion: a batch never spans two sheets, and the
 * first batch of a new sheet says so (its writer starts the sheet and its header first), and its
 * CRC-32 starts from the sheet head's.
 */

/** Bytes of CopyData frames per batch sent to the worker. */
export const BATCH_BYTES = 256 * 1024;
/** Memory a batch is gathered in: room for a batch and one more read (copy-socket.ts). */
const BATCH_MEMORY = 2 * BATCH_BYTES;
/**
 * Batches the worker may hold (converting, or deflating on the libuv pool) or have answered
 * before the oldest is written: enough that conversion never waits for deflate's jitter on a
 * busy machine, at about a megabyte each.
 */
export const MAX_IN_FLIGHT = 8;

/** Writes a batch's deflated XML: `rows` rows; `newSheet`: start the next sheet first. */
export type BatchWriter = (xml: Packed, rows: number, newSheet: boolean) => Promise<void>;

interface InFlight {
  xml: Promise<Packed>;
  rows: number;
  newSheet: boolean;
}

export class TablePipe implements FrameSink {
  /** The batch being gathered: memory of its own (handed over to the worker when sent). */
  private frames: Uint8Array | null = null;
  private bytes = 0;
  private rows = 0;
  /** Rows the current sheet will hold once every batch so far is written (its header too). */
  private planned = 1;
  private newSheet = false;
  /** Whether the next batch is its sheet's first. */
  private first = true;
  private readonly inFlight: InFlight[] = [];
  /** The writes, one after another, in order (room() and end() may both be writing). */
  private writing: Promise<void> = Promise.resolve();

  /** `headCrc`: the CRC-32 of a sheet's head (the same for each sheet of the table). */
  constructor(
    private readonly worker: CopyXmlWorker,
    private readonly headCrc: number,
    private readonly write: BatchWriter,
  ) {}

  /** Copies a chunk of whole CopyData frames into batches (the chunk is not kept). */
  take(chunk: Buffer): void {
    let c = chunk;
    for (;;) {
      const { rows, end } = framesIn(c, XLSX_MAX_ROWS - this.planned);
      if (rows > 0) this.append(c.subarray(0, end), rows);
      if (end === c.length) break;
      // The sheet is full: what is gathered goes, and the rows left start the next sheet.
      this.send();
      this.newSheet = true;
      this.first = true;
      this.planned = 1;
      c = c.subarray(end);
    }
    if (this.bytes >= BATCH_BYTES) this.send();
  }

  /** Whether more batches are in flight than MAX_IN_FLIGHT: take no more until room(). */
  get full(): boolean {
    return this.inFlight.length > MAX_IN_FLIGHT;
  }

  /** Writes the oldest batches until no more than MAX_IN_FLIGHT are in flight. */
  async room(): Promise<void> {
    while (this.inFlight.length > MAX_IN_FLIGHT) await this.writeOldest();
  }

  /** Sends what is gathered and writes every batch still in flight. */
  async end(): Promise<void> {
    this.send();
    while (this.inFlight.length > 0) await this.writeOldest();
  }

  private append(frames: Buffer, rows: number): void {
    if (this.frames && this.bytes + frames.length > this.frames.length) this.send();
    this.frames ??= this.worker.frameBuffer(Math.max(BATCH_MEMORY, frames.length));
    this.frames.set(frames, this.bytes);
    this.bytes += frames.length;
    this.rows += rows;
    this.planned += rows;
  }

  private send(): void {
    if (this.rows === 0) return;
    this.inFlight.push({
      xml: this.worker.convert(
        this.frames!.subarray(0, this.bytes),
        this.rows,
        this.first ? this.headCrc : undefined,
      ),
      rows: this.rows,
      newSheet: this.newSheet,
    });
    this.frames = null;
    this.bytes = 0;
    this.rows = 0;
    this.newSheet = false;
    this.first = false;
  }

  private writeOldest(): Promise<void> {
    this.writing = this.writing.then(async () => {
      const batch = this.inFlight.shift();
      if (batch) await this.write(await batch.xml, batch.rows, batch.newSheet);
    });
    return this.writing;
  }
}
