import { parentPort } from 'node:worker_threads';
import { CopyToXml } from './copy-to-xml.js';
import { SharedStrings } from './shared-strings.js';
import type { CopyWorkerReply, CopyWorkerRequest } from './copy-worker.js';

/**
 * The backup's conversion thread (copy-worker.ts is its main-thread side): batches of binary
 * COPY tuples in, their sheet XML out, with the workbook's shared strings kept across tables.
 * After a failure it answers nothing more: the main thread has failed the backup.
 */

const port = parentPort;
if (!port) throw new Error('copy-worker.thread.ts runs as a worker thread');

const shared = new SharedStrings();
let converter: CopyToXml | null = null;
let references = 0;
let failed = false;

port.on('message', (m: CopyWorkerRequest) => {
  if (failed) return;
  try {
    handle(m);
  } catch (err) {
    failed = true;
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    port.postMessage({ id: 'id' in m ? m.id : 0, error } satisfies CopyWorkerReply);
  }
});

function handle(m: CopyWorkerRequest): void {
  if (m.type === 'table') {
    if (converter) references += converter.references;
    converter = new CopyToXml(m.kinds, shared);
    return;
  }
  if (m.type === 'end') {
    if (converter) references += converter.references;
    converter = null;
    const xml = shared.size > 0 ? shared.xml(references) : null;
    // Memory of its own (a small Buffer may sit in node's shared pool).
    const own = xml ? Uint8Array.from(xml) : null;
    const reply: CopyWorkerReply = { id: m.id, xml: own ? own.buffer : null };
    port!.postMessage(reply, own ? [own.buffer] : []);
    return;
  }
  if (!converter) throw new Error('a batch before its table');
  const { tuples } = m;
  const { xml, rows } = converter.push(
    Buffer.from(tuples.buffer, tuples.byteOffset, tuples.byteLength),
  );
  if (rows !== m.rows || converter.pending !== 0) {
    throw new Error(
      `a batch of ${m.rows} rows gave ${rows} and ${converter.pending} bytes left over`,
    );
  }
  // The XML's memory is the converter's own (never node's shared pool): it is handed over as it
  // is, and the batch's memory goes back for a later batch.
  const memory = xml.buffer as ArrayBuffer;
  const reply: CopyWorkerReply = {
    id: m.id,
    xml: memory,
    length: xml.length,
    tuples: tuples.buffer as ArrayBuffer,
  };
  port!.postMessage(reply, [memory, tuples.buffer as ArrayBuffer]);
}
