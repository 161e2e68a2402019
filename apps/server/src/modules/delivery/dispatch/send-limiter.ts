/**
 * Places for messages on this instance (config.delivery.concurrency), shared by every dispatch
 * slice the runner holds. A place is taken before a send and given back only once that send's
 * result is committed (result-writer.ts), so it bounds what a crash can leave sent but
 * unwritten: the duplicates after a restart. A batch send takes its places all at once, so
 * slices holding part of what they need can never starve each other.
 */
export class SendLimiter {
  private active = 0;
  /** Waiters in arrival order; the first one is served before any later one. */
  private readonly waiting: { n: number; grant: () => void }[] = [];

  constructor(readonly limit: number) {}

  /** Resolves with the function that gives the place back (call it once). */
  async acquire(): Promise<() => void> {
    return (await this.acquireMany(1))[0] as () => void;
  }

  /** Takes `n` places (at most the limit) at once; one give-back function per place. */
  async acquireMany(n: number): Promise<(() => void)[]> {
    const want = Math.min(Math.max(1, n), this.limit);
    if (this.waiting.length === 0 && this.active + want <= this.limit) {
      this.active += want;
    } else {
      await new Promise<void>((grant) => this.waiting.push({ n: want, grant }));
    }
    return Array.from({ length: want }, () => {
      let given = false;
      return () => {
        if (given) return;
        given = true;
        this.active--;
        this.serve();
      };
    });
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

  private serve(): void {
    for (let w = this.waiting[0]; w && this.active + w.n <= this.limit; w = this.waiting[0]) {
      this.waiting.shift();
      this.active += w.n;
      w.grant();
    }
  }
}
