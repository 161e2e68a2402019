/** How long the Numbers box rests before its text is parsed: typing never parses per key. */
export const LIVE_PARSE_DELAY_MS = 300;

export type LiveResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Parses only the latest input. An input replaced while it waits out the delay is never
 * parsed; one replaced while parsing has its result dropped, so a slow old parse can never
 * overwrite a newer one. Only the latest input's result reaches `deliver`.
 */
export class LatestParse<I, T> {
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waiting: { input: I } | undefined;
  private running: { generation: number; done: Promise<void> } | undefined;
  private latest: { generation: number; result: LiveResult<T> } | undefined;

  constructor(
    private readonly parse: (input: I) => Promise<T>,
    private readonly deliver: (result: LiveResult<T>) => void,
    private readonly delayMs = LIVE_PARSE_DELAY_MS,
  ) {}

  /** A new input: parsed once it has rested for the delay, unless another replaces it. */
  update(input: I): void {
    this.cancel();
    this.waiting = { input };
    this.timer = setTimeout(() => void this.start(), this.delayMs);
  }

  /** No input any more: nothing waiting is parsed and no result still running is delivered. */
  cancel(): void {
    this.generation++;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting = undefined;
  }

  /**
   * The latest input's result, parsing it at once if it is still waiting out the delay (a
   * submit must not wait for it, nor use an older count); undefined when there is no input.
   */
  async settle(): Promise<LiveResult<T> | undefined> {
    for (;;) {
      const generation = this.generation;
      if (this.waiting) await this.start();
      else if (this.running?.generation === generation) await this.running.done;
      // A newer input arrived meanwhile: settle that one instead.
      if (generation === this.generation) {
        return this.latest?.generation === generation ? this.latest.result : undefined;
      }
    }
  }

  private start(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    if (!waiting) return Promise.resolve();
    this.waiting = undefined;
    const generation = this.generation;
    const finish = (result: LiveResult<T>) => {
      if (generation !== this.generation) return;
      this.latest = { generation, result };
      this.deliver(result);
    };
    const done = Promise.resolve()
      .then(() => this.parse(waiting.input))
      .then(
        (value) => finish({ ok: true, value }),
        (error: unknown) => finish({ ok: false, error }),
      );
    this.running = { generation, done };
    return done;
  }
}
