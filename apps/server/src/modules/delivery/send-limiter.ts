/**
 * Places for messages on this instance (config.delivery.concurrency), shared by every dispatch
 * slice the runner holds. A place is taken before a send and given back only once that send's
 * result is committed (dispatch-pipeline.ts), so it bounds what a crash can leave sent but
 * unwritten: the duplicates after a restart.
 */
export class SendLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  /** Resolves with the function that gives the place back (call it once). */
  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    let given = false;
    return () => {
      if (given) return;
      given = true;
      // The place passes straight to the next waiter, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }

  /** Runs `fn` once a place is free, and frees it when `fn` settles. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Places taken now. */
  get inUse(): number {
    return this.active;
  }
}
