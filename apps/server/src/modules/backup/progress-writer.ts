import type { AppContext } from '../../context.js';

/** Progress and heartbeat are written at most this often while a build runs. */
const PROGRESS_EVERY_MS = 500;

/**
 * Writes a running build's rows so far and its heartbeat (backup-downloads.ts, manual-backup.ts),
 * at most every PROGRESS_EVERY_MS and one write at a time; a write that fails is logged, not
 * thrown, as the build itself is still fine.
 */
export class ProgressWriter {
  private rows = 0;
  private last = 0;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: Pick<AppContext, 'log'>,
    private readonly save: (rows: number) => Promise<void>,
  ) {}

  /** The rows written so far, as last reported. */
  get rowsSoFar(): number {
    return this.rows;
  }

  update(rows: number): void {
    this.rows = rows;
    if (Date.now() - this.last >= PROGRESS_EVERY_MS) this.write();
  }

  write(): void {
    this.last = Date.now();
    const rows = this.rows;
    this.pending = this.pending.then(async () => {
      await this.save(rows).then(
        () => undefined,
        (err: unknown) => this.ctx.log.warn({ err, component: 'backup' }, 'progress not saved'),
      );
    });
  }

  idle(): Promise<void> {
    return this.pending;
  }
}
