import { startModuleWorker } from './worker-module.js';

/**
 * scrypt on worker threads at the lowest CPU priority (nice 19), for docs/performance.md, login
 * storm: during a login storm the rest of the app keeps its p99 within 2x idle. `crypto.scrypt`
 * runs on libuv's pool at the same priority as the event loop, so on 2 cores a hash took its core
 * from the server's own requests (and from PostgreSQL) whenever they wanted it; a niced thread
 * only gets the CPU that nothing else asks for. Linux keeps nice per thread, so
 * `os.setPriority(0, 19)` inside the worker (scrypt.thread.ts) lowers that thread alone. Where
 * lowering is refused, the worker still hashes at normal priority.
 *
 * The caller bounds how many hashes run at once (PasswordHasher's slots); each worker hashes one
 * at a time, and a new one starts when every worker is busy. Workers are unref'd and end after
 * an idle spell, so they never keep the process alive or pile up across app instances in tests.
 * A pool library (piscina) would add a dependency for what these 60 lines do: the caller already
 * bounds the hashes in flight, and each thread must lower its own priority and end when idle.
 */

export interface ScryptJob {
  password: string;
  salt: Buffer;
  keyLength: number;
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

export type ScryptRunner = (job: ScryptJob) => Promise<Buffer>;

/** A worker with nothing to do for this long ends (a new one starts in about 30 ms). */
const IDLE_MS = 30_000;

/** A worker's answer to a job: the key, or why there is none. */
export interface ScryptReply {
  key?: Uint8Array;
  error?: string;
}

class ScryptWorker {
  private readonly worker = startModuleWorker(new URL('./scrypt.thread.ts', import.meta.url));
  private pending: { resolve: (key: Buffer) => void; reject: (err: Error) => void } | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  ended = false;

  constructor(private readonly onIdle: (w: ScryptWorker) => void) {
    this.worker.unref();
    this.worker.on('message', (reply: ScryptReply) => {
      const pending = this.pending;
      this.pending = undefined;
      if (reply.key) pending?.resolve(Buffer.from(reply.key));
      else pending?.reject(new Error(reply.error ?? 'scrypt failed'));
      this.onIdle(this);
      this.idleTimer = setTimeout(() => this.end(), IDLE_MS).unref();
    });
    const fail = (err: Error) => {
      this.ended = true;
      this.pending?.reject(err);
      this.pending = undefined;
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`scrypt worker exited (${code})`)));
  }

  run(job: ScryptJob): Promise<Buffer> {
    clearTimeout(this.idleTimer);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(job);
    });
  }

  end(): void {
    this.ended = true;
    void this.worker.terminate();
  }
}

/** A runner over niced worker threads; started lazily, one per hash running at once. */
export function nicedScryptRunner(): ScryptRunner {
  const idle: ScryptWorker[] = [];
  const release = (w: ScryptWorker) => {
    if (!w.ended) idle.push(w);
  };
  return (job) => {
    let worker = idle.pop();
    while (worker?.ended) worker = idle.pop();
    return (worker ?? new ScryptWorker(release)).run(job);
  };
}
