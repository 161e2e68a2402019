import { XLSX_MAX_ROWS } from '../../lib/xlsx-writer.js';
import { framesIn } from './copy-frames.js';
import type { Packed } from './backup-zip.js';
import type { CopyXmlWorker } from './copy-worker.js';

/**
 * One table's rows on their way from COPY to the sheet: chunks of CopyData frames are gathered
 * into batches of about BATCH_BYTES (one message to the worker per batch, not per socket read),
 * at most MAX_IN_FLIGHT batches are with the worker at once, and their XML is written in order.
 * The sheet limit is planned here, before conversion: a batch never spans two sheets, and the
 * first batch of a new sheet says so (its writer starts the sheet and its header first), and its
 * CRC-32 starts from the sheet head's.
 */

/** Bytes of CopyData frames per batch sent to the worker. */
export const BATCH_BYTES = 256 * 1024;
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

export class TablePipe {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private rows = 0;
  /** Rows the current sheet will hold once every batch so far is written (its header too). */
  private planned = 1;
  private newSheet = false;
  /** Whether the next batch is its sheet's first. */
  private first = true;
  private readonly inFlight: InFlight[] = [];

  /** `headCrc`: the CRC-32 of a sheet's head (the same for each sheet of the table). */
  constructor(
    private readonly worker: CopyXmlWorker,
    private readonly headCrc: number,
    private readonly write: BatchWriter,
  ) {}

  /** Adds a chunk of whole CopyData frames; waits while too many batches are in flight. */
  async add(chunk: Buffer): Promise<void> {
    let c = chunk;
    for (;;) {
      const { rows, end } = framesIn(c, XLSX_MAX_ROWS - this.planned);
      if (rows > 0) {
        this.chunks.push(c.subarray(0, end));
        this.bytes += end;
        this.rows += rows;
        this.planned += rows;
      }
      if (end === c.length) break;
      // The sheet is full: what is gathered goes, and the rows left start the next sheet.
      await this.send();
      this.newSheet = true;
      this.first = true;
      this.planned = 1;
      c = c.subarray(end);
    }
    if (this.bytes >= BATCH_BYTES) await this.send();
  }

  /** Sends what is gathered and writes every batch still in flight. */
  async end(): Promise<void> {
    await this.send();
    while (this.inFlight.length > 0) await this.writeOldest();
  }

  private async send(): Promise<void> {
    if (this.rows === 0) return;
    // Memory of its own, handed over to the worker (and given back for a later batch).
    const frames = this.worker.frameBuffer(this.bytes);
    let at = 0;
    for (const c of this.chunks) {
      frames.set(c, at);
      at += c.length;
    }
    this.inFlight.push({
      xml: this.worker.convert(frames, this.rows, this.first ? this.headCrc : undefined),
      rows: this.rows,
      newSheet: this.newSheet,
    });
    this.chunks = [];
    this.bytes = 0;
    this.rows = 0;
    this.newSheet = false;
    this.first = false;
    while (this.inFlight.length > MAX_IN_FLIGHT) await this.writeOldest();
  }

  private async writeOldest(): Promise<void> {
    const batch = this.inFlight.shift()!;
    await this.write(await batch.xml, batch.rows, batch.newSheet);
  }
}
