import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Group commit: items handed in one by one are written in groups, a group leaving as soon as
 * a writer is free (no timer, no idle wait). Under load everything that arrived while the
 * previous group was being written goes together (up to `maxItems`); when quiet, an item
 * leaves at once. The engine's two writers are built on it: the send results of a dispatch
 * slice (dispatch/result-writer.ts) and the provider status events (status/status-writer.ts).
 * See docs/delivery.md, The writers.
 */

export interface GroupCommitOptions {
  /** Most items in one group (one flush). */
  maxItems?: number;
  /** Groups flushed at once. */
  concurrency?: number;
}

interface Group<T> {
  items: T[];
  resolve: () => void;
  reject: (err: unknown) => void;
  done: Promise<void>;
}

function newGroup<T>(): Group<T> {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A group nobody waits on (its callers went away) must not become an unhandled rejection.
  done.catch(() => {});
  return { items: [], resolve, reject, done };
}

export class GroupCommit<T> {
  private readonly maxItems: number;
  private readonly concurrency: number;
  /** Groups waiting for a writer, oldest first; the last one may still take items. */
  private readonly queue: Group<T>[] = [];
  private running = 0;
  private idle: (() => void)[] = [];

  constructor(
    /** Writes one group; a throw fails that group only (the next ones are still written). */
    private readonly flush: (items: T[]) => Promise<void>,
    opts: GroupCommitOptions = {},
  ) {
    this.maxItems = opts.maxItems ?? Infinity;
    this.concurrency = opts.concurrency ?? 1;
  }

  /**
   * Queues `items`; resolves once every group holding some of them was flushed, and rejects
   * with the error of one that failed. Ignoring the promise is safe: nothing goes unhandled.
   */
  submit(items: readonly T[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    const waits: Promise<void>[] = [];
    let i = 0;
    while (i < items.length) {
      let open = this.queue.at(-1);
      if (!open || open.items.length >= this.maxItems) {
        open = newGroup<T>();
        this.queue.push(open);
      }
      const take = Math.min(this.maxItems - open.items.length, items.length - i);
      for (let j = i; j < i + take; j++) open.items.push(items[j] as T);
      i += take;
      if (waits.at(-1) !== open.done) waits.push(open.done);
    }
    this.pump();
    return waits.length === 1 ? (waits[0] as Promise<void>) : Promise.all(waits).then(() => {});
  }

  /** Items queued and not yet handed to a flush. */
  get pending(): number {
    return this.queue.reduce((n, g) => n + g.items.length, 0);
  }

  /** Resolves when nothing is queued or being flushed. */
  async drained(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (this.running < this.concurrency && this.queue.length > 0) {
      const group = this.queue.shift() as Group<T>;
      this.running++;
      void this.run(group);
    }
  }

  private async run(group: Group<T>): Promise<void> {
    try {
      await this.flush(group.items);
      group.resolve();
    } catch (err) {
      group.reject(err);
    } finally {
      this.running--;
      this.pump();
      if (this.running === 0 && this.queue.length === 0) {
        for (const wake of this.idle.splice(0)) wake();
      }
    }
  }
}

/** PostgreSQL's deadlock_detected and serialization_failure: the loser may simply try again. */
const CONFLICT_CODES = new Set(['40P01', '40001']);

/**
 * Runs `write` again when it lost a deadlock or a serialization conflict, at most `tries` times
 * in all, waiting `delayMs(attempt)` between tries. A status batch locks its rows in key order
 * but a result write locks its rows in the order the sends ended, so the two writers can
 * deadlock; PostgreSQL then fails one of them, nothing of it committed, and writing it again is
 * all it takes.
 */
export async function retryingConflicts<R>(
  write: () => Promise<R>,
  tries: number,
  delayMs: (attempt: number) => number,
): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : null;
      if (attempt >= tries || typeof code !== 'string' || !CONFLICT_CODES.has(code)) throw err;
      await sleep(delayMs(attempt));
    }
  }
}
