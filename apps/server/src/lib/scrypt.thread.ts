import { scryptSync } from 'node:crypto';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { ScryptJob, ScryptReply } from './scrypt-workers.js';

/**
 * A scrypt worker thread (scrypt-workers.ts): lowers its own priority to nice 19 (Linux keeps
 * nice per thread), then hashes one job per message. Where lowering is refused, it hashes at
 * normal priority.
 */

try {
  setPriority(0, 19);
} catch {
  // Not allowed here: the hash still runs, at normal priority.
}

const port = parentPort;
if (!port) throw new Error('scrypt.thread.ts runs as a worker thread');

port.on('message', (job: ScryptJob) => {
  let reply: ScryptReply;
  try {
    const { N, r, p, maxmem } = job;
    reply = { key: scryptSync(job.password, job.salt, job.keyLength, { N, r, p, maxmem }) };
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});
