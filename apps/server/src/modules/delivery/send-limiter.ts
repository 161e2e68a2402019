/**
 * Messages in flight at once on this instance (config.delivery.concurrency), shared by every
 * dispatch slice the runner holds: it is also the bound on duplicates after a crash, since
 * only sends in flight can have reached the provider without their result being written.
 */
export class SendLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  /** Runs `fn` once a place is free. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await fn();
    } finally {
      // The place passes straight to the next waiter, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
