import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../lib/worker-module.js';
import type { CopyFieldKind } from './copy-to-xml.js';

/**
 * Turns binary COPY tuples into sheet XML on a worker thread (copy-worker.thread.ts), with the
 * workbook's shared strings, so that the main thread only reads the COPY and hands the XML to
 * the zip (lib/xlsx-writer.ts, which deflates on the libuv pool). Batches of whole tuples go in
 * as transferred memory; each batch's XML comes back as transferred memory too, with the
 * batch's memory for a later batch. The caller bounds how many batches are in flight
 * (table-pipe.ts), which bounds memory, and writes them in order. A worker that fails or exits
 * fails every batch in flight and every one after.
 *
 * One thread of its own rather than a pool (piscina): the work is one ordered, stateful stream
 * (the shared strings grow across every table, in row order), which a pool of tasks would have
 * to serialise again.
 */

/** What the main thread sends the worker. */
export type CopyWorkerRequest =
  /** Rows of a new table follow, with these field kinds. */
  | { type: 'table'; kinds: readonly CopyFieldKind[] }
  /** `rows` rows as whole tuples, in memory handed over. */
  | { type: 'batch'; id: number; tuples: Uint8Array; rows: number }
  /** After the last table: the shared strings' XML. */
  | { type: 'end'; id: number };

export interface CopyWorkerReply {
  id: number;
  /** A batch's XML (the first `length` bytes of `xml`), or the shared strings' at the end. */
  xml?: ArrayBuffer | null;
  length?: number;
  /** The memory of the batch's tuples, given back. */
  tuples?: ArrayBuffer;
  error?: string;
}

/** Memory for a batch is at least this big, so one buffer serves batch after batch. */
const BATCH_BUFFER_BYTES = 512 * 1024;
/** Batch buffers kept for reuse (batches in flight come back to it). */
const MAX_SPARE = 8;

interface Waiting {
  resolve: (reply: CopyWorkerReply) => void;
  reject: (err: Error) => void;
}

export class CopyXmlWorker {
  private readonly worker = startModuleWorker(new URL('./copy-worker.thread.ts', import.meta.url));
  private readonly waiting = new Map<number, Waiting>();
  private readonly spare: ArrayBuffer[] = [];
  private next = 0;
  private failure: Error | null = null;

  constructor() {
    this.worker.on('message', (reply: CopyWorkerReply) => {
      if (reply.tuples && this.spare.length < MAX_SPARE) this.spare.push(reply.tuples);
      if (reply.error === undefined) {
        this.waiting.get(reply.id)?.resolve(reply);
        this.waiting.delete(reply.id);
      } else this.fail(new Error(`backup worker: ${reply.error}`));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`backup worker exited (${code})`)));
  }

  /** Rows of a new table follow, with these field kinds. */
  startTable(kinds: readonly CopyFieldKind[]): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage({ type: 'table', kinds } satisfies CopyWorkerRequest);
  }

  /** Memory for `size` bytes of tuples to `convert`: a buffer a batch gave back, or a new one. */
  batchBuffer(size: number): Uint8Array {
    for (let memory = this.spare.pop(); memory; memory = this.spare.pop()) {
      if (memory.byteLength >= size) return new Uint8Array(memory, 0, size);
    }
    return new Uint8Array(new ArrayBuffer(Math.max(size, BATCH_BUFFER_BYTES)), 0, size);
  }

  /**
   * The sheet XML of `rows` rows given as whole tuples in `tuples`, whose memory is handed over
   * to the worker (the caller must not touch it again).
   */
  convert(tuples: Uint8Array, rows: number): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    const id = ++this.next;
    const promise = this.reply(id).then((r) => Buffer.from(r.xml!, 0, r.length ?? 0));
    // Awaited in order by the caller; a failure must not count as unhandled meanwhile.
    promise.catch(() => {});
    this.worker.postMessage({ type: 'batch', id, tuples, rows } satisfies CopyWorkerRequest, [
      tuples.buffer as ArrayBuffer,
    ]);
    return promise;
  }

  /**
   * After the last table: the shared-strings part (xl/sharedStrings.xml) the sheets' cells
   * point into, or null when none does.
   */
  async sharedStrings(): Promise<Buffer | null> {
    if (this.failure) throw this.failure;
    const id = ++this.next;
    const promise = this.reply(id);
    this.worker.postMessage({ type: 'end', id } satisfies CopyWorkerRequest);
    const { xml } = await promise;
    return xml ? Buffer.from(xml) : null;
  }

  private reply(id: number): Promise<CopyWorkerReply> {
    return new Promise<CopyWorkerReply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
    });
  }

  /** Ends the worker; batches still in flight fail. */
  async close(): Promise<void> {
    this.fail(new Error('backup worker closed'));
    await this.worker.terminate();
  }

  /** The worker itself, for tests that make it fail. */
  get thread(): Worker {
    return this.worker;
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(this.failure);
    this.waiting.clear();
  }
}
