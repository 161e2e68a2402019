import { Worker } from 'node:worker_threads';
import { textSafety } from '../../lib/xlsx-writer.js';
import { defineCopyToXml, type CopyFieldKind } from './copy-to-xml.js';
import { defineSharedStrings } from './shared-strings.js';

/**
 * Turns COPY rows into sheet XML on a worker thread, with the workbook's shared strings, so that on two cores the main thread only
 * reads the socket and feeds deflate while the worker converts (and PostgreSQL and deflate run
 * beside them). Batches of whole CopyData frames go in and their XML comes back, both as
 * transferred memory (no copy between the threads); replies come in the order of the batches.
 * The caller bounds how many batches are in flight (backup-writer.ts), which bounds memory.
 *
 * The worker runs copy-to-xml.ts's own source (defineCopyToXml, self-contained, with the sheet
 * writer's text rules), given as an `eval` worker: there is no file to resolve from src or from
 * the bundled dist. `__name` is the helper a build keeping function names (tsx) calls inside
 * them. A worker that fails or exits fails every batch in flight and every one after.
 */

const SOURCE = `
const { parentPort } = require('node:worker_threads');
var __name = (target) => target;
const CopyToXml = (${defineCopyToXml.toString()})((${textSafety.toString()})());
const shared = new ((${defineSharedStrings.toString()})())();
let converter = null;
let references = 0;
parentPort.on('message', (m) => {
  if (m.kinds) {
    if (converter) references += converter.references;
    converter = new CopyToXml(m.kinds, shared);
    return;
  }
  if (m.end) {
    if (converter) references += converter.references;
    converter = null;
    const xml = shared.size > 0 ? shared.xml(references) : null;
    // Memory of its own (a small Buffer may sit in node's shared pool).
    const own = xml ? Uint8Array.from(xml) : null;
    parentPort.postMessage({ id: m.id, xml: own ? own.buffer : null }, own ? [own.buffer] : []);
    return;
  }
  try {
    const { xml, rows } = converter.push(Buffer.from(m.frames.buffer, m.frames.byteOffset, m.frames.byteLength), Number.MAX_SAFE_INTEGER);
    if (rows !== m.rows || converter.pending !== 0) {
      throw new Error('a batch of ' + m.rows + ' rows gave ' + rows + ' and ' + converter.pending + ' bytes left over');
    }
    // The frames' memory goes back too, for a later batch (fewer new buffers for the GC).
    parentPort.postMessage({ id: m.id, xml: xml.buffer, frames: m.frames.buffer }, [xml.buffer, m.frames.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String((err && err.stack) || err) });
  }
});
`;

interface Reply {
  id: number;
  xml?: ArrayBuffer | null;
  /** The memory of the batch's frames, given back. */
  frames?: ArrayBuffer;
  error?: string;
}

const EMPTY = Buffer.alloc(0);
/** Memory for a batch of frames is at least this big, so one buffer serves batch after batch. */
const FRAME_BUFFER_BYTES = 512 * 1024;
/** Frame buffers kept for reuse (batches in flight come back to it). */
const MAX_SPARE = 8;

interface Waiting {
  resolve: (xml: Buffer) => void;
  reject: (err: Error) => void;
}

export class CopyXmlWorker {
  private readonly worker = new Worker(SOURCE, { eval: true });
  private readonly waiting = new Map<number, Waiting>();
  private readonly spare: ArrayBuffer[] = [];
  private next = 0;
  private failure: Error | null = null;

  constructor() {
    this.worker.on('message', (reply: Reply) => {
      if (reply.frames && this.spare.length < MAX_SPARE) this.spare.push(reply.frames);
      if (reply.error === undefined) {
        this.waiting.get(reply.id)?.resolve(reply.xml ? Buffer.from(reply.xml) : EMPTY);
        this.waiting.delete(reply.id);
      } else this.fail(new Error(`backup worker: ${reply.error}`));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`backup worker exited (${code})`)));
  }

  /** Rows of a new table follow, with these field kinds. */
  startTable(kinds: readonly CopyFieldKind[]): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage({ kinds });
  }

  /** Memory for `size` bytes of frames to `convert`: a buffer a batch gave back, or a new one. */
  frameBuffer(size: number): Uint8Array {
    for (let memory = this.spare.pop(); memory; memory = this.spare.pop()) {
      if (memory.byteLength >= size) return new Uint8Array(memory, 0, size);
    }
    return new Uint8Array(new ArrayBuffer(Math.max(size, FRAME_BUFFER_BYTES)), 0, size);
  }

  /**
   * The XML of `rows` rows given as whole CopyData frames in `frames`, whose memory is handed
   * over to the worker (the caller must not touch it again).
   */
  convert(frames: Uint8Array, rows: number): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    const id = ++this.next;
    const promise = new Promise<Buffer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
    });
    // Awaited in order by the caller; a failure must not count as unhandled meanwhile.
    promise.catch(() => {});
    this.worker.postMessage({ id, frames, rows }, [frames.buffer as ArrayBuffer]);
    return promise;
  }

  /**
   * After the last table: the shared-strings part (xl/sharedStrings.xml) the sheets' cells
   * point into, or null when none does.
   */
  async sharedStrings(): Promise<Buffer | null> {
    if (this.failure) throw this.failure;
    const id = ++this.next;
    const promise = new Promise<Buffer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
    });
    this.worker.postMessage({ id, end: true });
    const xml = await promise;
    return xml.length > 0 ? xml : null;
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
