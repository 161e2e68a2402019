import { Worker } from 'node:worker_threads';
import { EXCEL_EPOCH_DAYS, MS_PER_DAY, textSafety } from '../../lib/xlsx-writer.js';
import { defineBinaryFields } from './binary-fields.js';
import { defineCopyToXml, type CopyFieldKind } from './copy-to-xml.js';
import { defineSharedStrings } from './shared-strings.js';
import type { Packed } from './backup-zip.js';

/**
 * Turns COPY rows into deflated sheet XML on a worker thread, with the workbook's shared strings,
 * so that the XML never reaches the main thread: it only reads the socket and writes compressed
 * bytes (backup-zip.ts). Batches of whole CopyData frames go in as transferred memory; each
 * batch's XML is summed into its sheet's running CRC-32 here, in order, then deflated as a piece
 * of its own on the libuv pool (the next batches convert and deflate meanwhile): the compressed
 * bytes and the frames' memory come back. A piece ends on a sync flush, without a final block:
 * backup-zip.ts adds that with the sheet's tail. The caller bounds how many batches are in
 * flight (table-pipe.ts), which bounds memory, and writes them in order.
 *
 * The worker runs copy-to-xml.ts's own source (defineCopyToXml, self-contained, with the sheet
 * writer's text rules and binary-fields.ts' writers), given as an `eval` worker: there is no file to resolve from src or from
 * the bundled dist. `__name` is the helper a build keeping function names (tsx) calls inside
 * them. A worker that fails or exits fails every batch in flight and every one after.
 */

/** Memory for a batch's compressed bytes is at least this big (they are about 80 KB). */
const PIECE_BYTES = 192 * 1024;

const SOURCE = `
const { parentPort } = require('node:worker_threads');
const zlib = require('node:zlib');
let crc = 0;
let failed = false;
/** Messages wait here and are handled one per turn of the event loop (see below). */
const queue = [];
let turning = false;
function fail(id, err) {
  failed = true;
  parentPort.postMessage({ id, error: String((err && err.stack) || err) });
}
/**
 * A batch's XML is deflated on its own, as a raw deflate stream ending on a sync flush (whole
 * bytes, no final block): such pieces join into one stream, as pigz joins them, so the batches
 * of a sheet are deflated side by side on the libuv pool rather than one after another (one
 * stream per sheet made deflate a chain as long as all the others: a core stood idle). Nothing
 * refers back across a piece: 0.1% more output.
 * Level 2 costs this zlib no more than level 1 on sheet XML, and its output is 8% smaller.
 */
/** Memory the main thread gave back for the next batches' compressed bytes. */
const pieces = [];
/** Memory for a batch's compressed bytes: given back, or new (with room to serve again). */
function pieceMemory(n) {
  for (let memory = pieces.pop(); memory; memory = pieces.pop()) {
    if (memory.byteLength >= n) return memory;
  }
  return new ArrayBuffer(Math.max(n, ${PIECE_BYTES}));
}
/** Deflate streams not in use: one is reset for each batch (new ones cost the GC dearly). */
const idle = [];
function deflater() {
  const z = idle.pop();
  if (z) {
    z.stream.reset();
    return z;
  }
  // Every write ends in a sync flush: zlib has pushed all of its output when its callback runs.
  const stream = zlib.createDeflateRaw({ level: 2, flush: zlib.constants.Z_SYNC_FLUSH, chunkSize: 256 * 1024 });
  const fresh = { stream, out: [] };
  stream.on('data', (c) => fresh.out.push(c));
  stream.on('error', (err) => fail(0, err));
  return fresh;
}
var __name = (target) => target;
const CopyToXml = (${defineCopyToXml.toString()})(
  (${textSafety.toString()})(),
  (${defineBinaryFields.toString()})(${MS_PER_DAY}, ${EXCEL_EPOCH_DAYS}),
);
const shared = new ((${defineSharedStrings.toString()})())();
let converter = null;
let references = 0;
// One message per turn: node hands a worker every queued message at once, and converting them
// back to back would keep deflate's completions (and so the replies) waiting.
parentPort.on('message', (m) => {
  queue.push(m);
  if (!turning) {
    turning = true;
    setImmediate(turn);
  }
});
function turn() {
  const m = queue.shift();
  if (queue.length > 0) setImmediate(turn);
  else turning = false;
  if (m) handle(m);
}
function handle(m) {
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
  if (m.pieces) pieces.push(...m.pieces);
  if (failed) return;
  try {
    const { xml, rows } = converter.push(Buffer.from(m.frames.buffer, m.frames.byteOffset, m.frames.byteLength), Number.MAX_SAFE_INTEGER);
    if (rows !== m.rows || converter.pending !== 0) {
      throw new Error('a batch of ' + m.rows + ' rows gave ' + rows + ' and ' + converter.pending + ' bytes left over');
    }
    // A sheet's first batch starts its CRC-32 afresh, from its head's.
    if (m.seed !== undefined) crc = m.seed;
    crc = zlib.crc32(xml, crc);
    const sum = crc;
    const by = converter;
    const z = deflater();
    z.stream.write(xml, () => {
      if (failed) return;
      // zlib has read the XML: its memory serves a later batch.
      by.recycle(xml);
      const parts = z.out.splice(0);
      idle.push(z);
      // Memory the main thread gave back (or new), handed over with the frames' memory, which
      // goes back for a later batch too: few new buffers, for either thread's collector.
      let n = 0;
      for (const p of parts) n += p.length;
      const own = new Uint8Array(pieceMemory(n), 0, n);
      n = 0;
      for (const p of parts) {
        own.set(p, n);
        n += p.length;
      }
      parentPort.postMessage(
        { id: m.id, data: own.buffer, length: n, size: xml.length, crc: sum, frames: m.frames.buffer },
        [own.buffer, m.frames.buffer],
      );
    });
  } catch (err) {
    fail(m.id, err);
  }
}
`;

interface Reply {
  id: number;
  /** The shared strings' XML, at the end. */
  xml?: ArrayBuffer | null;
  /**
   * A batch's deflated XML (the first `length` bytes of `data`), how many bytes it inflates to,
   * and its sheet's CRC-32 so far.
   */
  data?: ArrayBuffer;
  length?: number;
  size?: number;
  crc?: number;
  /** The memory of the batch's frames, given back. */
  frames?: ArrayBuffer;
  error?: string;
}

/** Memory for a batch of frames is at least this big, so one buffer serves batch after batch. */
const FRAME_BUFFER_BYTES = 512 * 1024;
/** Frame buffers kept for reuse (batches in flight come back to it). */
const MAX_SPARE = 8;
/** Memory of compressed bytes given back to the worker at most at once. */
const MAX_PIECES = 16;

interface Waiting {
  resolve: (reply: Reply) => void;
  reject: (err: Error) => void;
}

export class CopyXmlWorker {
  private readonly worker = new Worker(SOURCE, { eval: true });
  private readonly waiting = new Map<number, Waiting>();
  private readonly spare: ArrayBuffer[] = [];
  /** Memory of written compressed bytes, to go back to the worker with the next batch. */
  private returning: ArrayBuffer[] = [];
  private next = 0;
  private failure: Error | null = null;

  constructor() {
    this.worker.on('message', (reply: Reply) => {
      if (reply.frames && this.spare.length < MAX_SPARE) this.spare.push(reply.frames);
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
   * The deflated XML of `rows` rows given as whole CopyData frames in `frames`, whose memory is
   * handed over to the worker (the caller must not touch it again). Its CRC-32 goes on from the
   * batch sent before, or from `seed` (the CRC-32 of its sheet's head) for a sheet's first.
   */
  convert(frames: Uint8Array, rows: number, seed?: number): Promise<Packed> {
    if (this.failure) return Promise.reject(this.failure);
    const id = ++this.next;
    const promise = this.reply(id).then((r) => ({
      data: new Uint8Array(r.data ?? new ArrayBuffer(0), 0, r.length ?? 0),
      size: r.size ?? 0,
      crc: r.crc ?? 0,
    }));
    // Awaited in order by the caller; a failure must not count as unhandled meanwhile.
    promise.catch(() => {});
    const pieces = this.returning;
    this.returning = [];
    this.worker.postMessage({ id, frames, rows, seed, pieces }, [
      frames.buffer as ArrayBuffer,
      ...pieces,
    ]);
    return promise;
  }

  /** Memory of a batch's compressed bytes, written: it goes back with the next batch. */
  giveBack(memory: ArrayBuffer): void {
    if (this.returning.length < MAX_PIECES && !this.returning.includes(memory)) {
      this.returning.push(memory);
    }
  }

  /**
   * After the last table: the shared-strings part (xl/sharedStrings.xml) the sheets' cells
   * point into, or null when none does.
   */
  async sharedStrings(): Promise<Buffer | null> {
    if (this.failure) throw this.failure;
    const id = ++this.next;
    const promise = this.reply(id);
    this.worker.postMessage({ id, end: true });
    const { xml } = await promise;
    return xml ? Buffer.from(xml) : null;
  }

  private reply(id: number): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
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
