/**
 * How often this instance's status writer tells open pages that a campaign's delivery moved
 * (live progress, but not one NOTIFY per batch). Under a webhook storm the
 * writer commits a batch every few milliseconds, and each NOTIFY costs a query up the owner's
 * chain and a frame to every Admin's page. So per campaign: the first batch publishes with its
 * own commit, later ones within `everyMs` only mark the campaign, and one NOTIFY after the
 * interval covers them all, so the last change of a burst always reaches the pages.
 */
export const STATUS_PROGRESS_EVERY_MS = 250;

export class ProgressThrottle {
  /** When each campaign was last published (leading edge or trailing NOTIFY). */
  private readonly last = new Map<string, number>();
  /** Campaigns changed since their last NOTIFY, waiting for the trailing one. */
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    /** Publishes outside any batch's transaction (its own NOTIFY); errors are its own to log. */
    private readonly publishLater: (campaignIds: string[]) => Promise<void>,
    private readonly everyMs = STATUS_PROGRESS_EVERY_MS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * The campaigns among `changed` to publish with the batch now; the others get the trailing
   * NOTIFY once their interval has passed.
   */
  take(changed: readonly string[]): string[] {
    const now = this.now();
    const publish: string[] = [];
    for (const id of changed) {
      const last = this.last.get(id);
      if (last === undefined || now - last >= this.everyMs) {
        this.last.set(id, now);
        this.pending.delete(id);
        publish.push(id);
      } else {
        this.pending.add(id);
      }
    }
    this.schedule();
    this.forgetOld(now);
    return publish;
  }

  /** Drops the trailing NOTIFY still waiting (the app is closing; pages resync on reconnect). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  private schedule(): void {
    if (this.timer || this.closed || this.pending.size === 0) return;
    let due = Infinity;
    for (const id of this.pending) due = Math.min(due, (this.last.get(id) ?? 0) + this.everyMs);
    this.timer = setTimeout(() => this.flush(), Math.max(0, due - this.now()));
    this.timer.unref();
  }

  private flush(): void {
    this.timer = undefined;
    const now = this.now();
    const ids = [...this.pending].filter((id) => now - (this.last.get(id) ?? 0) >= this.everyMs);
    for (const id of ids) {
      this.pending.delete(id);
      this.last.set(id, now);
    }
    if (ids.length > 0) void this.publishLater(ids);
    this.schedule();
  }

  /** Campaigns quiet for a while need no entry (a long-running app sees many campaigns). */
  private forgetOld(now: number): void {
    if (this.last.size <= 1000) return;
    for (const [id, at] of this.last) {
      if (now - at >= this.everyMs && !this.pending.has(id)) this.last.delete(id);
    }
  }
}
