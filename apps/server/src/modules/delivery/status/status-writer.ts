import type { AppContext, Log } from '../../../context.js';
import { GroupCommit, retryingConflicts } from '../group-commit.js';
import { publishCampaignProgress } from '../../live/index.js';
import { suppressFromProvider } from '../../suppressions/suppressions.service.js';
import { applyLateMoves } from '../settle/delivery-report.repo.js';
import { requestFinalize } from '../settle/finalize-request.js';
import { ProgressThrottle } from './progress-throttle.js';
import type { StatusEvent } from '../providers/provider.js';
import { applyStatusBatch, type RecipientEvent } from './status.repo.js';

/**
 * This instance's batcher of provider status events. Webhook requests hand their
 * events in and wait; the writer gathers whatever arrived into one batch and writes it with one
 * statement. A batch leaves as soon as the previous one committed (group commit: no timer and no
 * idle wait; under load everything that arrived meanwhile goes together, up to `maxEvents`), so
 * an event waits at most one batch's write before its own starts. A request's
 * promise settles only when every batch holding its events committed, and rejects when one
 * failed: the webhook then answers 503 and the provider sends the events again. Nothing here is
 * background work: it only serves requests that are waiting (the one timer is the throttled
 * live NOTIFY's, progress-throttle.ts).
 */

export interface StatusWriterOptions {
  /** Most events in one batch (one statement). */
  maxEvents?: number;
  /** Batches written at once; each holds a pooled connection while it runs. */
  concurrency?: number;
}

/**
 * Writes one batch in one transaction (status.repo.ts plus what follows it) and answers how many
 * of its events named no recipient row; throws to fail the batch.
 */
export type BatchWrite = (events: RecipientEvent[]) => Promise<{ unknown: number }>;

/** What this instance's writer has done since it started (tests and the bench read it). */
export interface StatusWriterStats {
  batches: number;
  events: number;
  /** Events whose reference names no recipient (malformed, or no such row): logged, not errors. */
  unknown: number;
  failedBatches: number;
}

export const STATUS_BATCH_MAX = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_LENGTH = 36;
const COLON = 0x3a;

/**
 * The last campaign id checked, as written in the reference and lowercased: a webhook's events
 * are nearly all of one campaign, so most references skip the pattern and the lowercasing (the
 * bench's profile of the app had this function at 4% of its CPU before).
 */
let lastId = { raw: '', lower: '' };

/** The row a message reference names, `${campaignId}:${phone}`; null when it names none. */
export function parseReference(reference: string): { campaignId: string; phone: string } | null {
  if (reference.length <= UUID_LENGTH + 1 || reference.charCodeAt(UUID_LENGTH) !== COLON) {
    return null;
  }
  const phone = reference.slice(UUID_LENGTH + 1);
  if (phone.length > 64) return null;
  if (lastId.raw === '' || !reference.startsWith(lastId.raw)) {
    const raw = reference.slice(0, UUID_LENGTH);
    if (!UUID.test(raw)) return null;
    lastId = { raw, lower: raw.toLowerCase() };
  }
  return { campaignId: lastId.lower, phone };
}

/** The writer's form of a provider event; null when its reference names no recipient row. */
export function toRecipientEvent(e: StatusEvent): RecipientEvent | null {
  const ref = parseReference(e.reference);
  if (!ref) return null;
  const failed = e.state === 'failed';
  return {
    campaignId: ref.campaignId,
    phone: ref.phone,
    state: e.state,
    at: e.at,
    providerMessageId: e.providerMessageId,
    errorCode: failed ? (e.error?.code ?? null) : null,
    errorText: failed ? (e.error?.text ?? null) : null,
  };
}

export class StatusWriter {
  private readonly batches: GroupCommit<RecipientEvent>;
  private closed = false;
  readonly stats: StatusWriterStats = { batches: 0, events: 0, unknown: 0, failedBatches: 0 };

  constructor(
    private readonly write: BatchWrite,
    private readonly log: Log,
    opts: StatusWriterOptions = {},
  ) {
    this.batches = new GroupCommit((events) => this.writeBatch(events), {
      maxItems: opts.maxEvents ?? STATUS_BATCH_MAX,
      concurrency: opts.concurrency ?? 1,
    });
  }

  /**
   * Resolves when all of `incoming` are committed; rejects when a batch holding some failed.
   * Events whose reference cannot name a recipient are counted and logged, not written.
   * `isOptedOut` (the adapter's classifyError) marks the failures that suppress the number.
   */
  submit(
    incoming: readonly StatusEvent[],
    isOptedOut?: (error: { code: string; text: string }) => boolean,
  ): Promise<void> {
    if (this.closed) return Promise.reject(new Error('status writer closed'));
    const events: RecipientEvent[] = [];
    for (const e of incoming) {
      const r = toRecipientEvent(e);
      if (!r) continue;
      if (e.state === 'failed' && e.error && isOptedOut?.(e.error)) r.optedOut = true;
      events.push(r);
    }
    this.countUnknown(incoming.length - events.length);
    return this.batches.submit(events);
  }

  /** Events accepted and not yet written. */
  get pending(): number {
    return this.batches.pending;
  }

  /** Takes no more events and resolves when every accepted one was written (or failed). */
  async close(): Promise<void> {
    this.closed = true;
    await this.batches.drained();
  }

  private countUnknown(n: number): void {
    if (n <= 0) return;
    this.stats.unknown += n;
    this.log.warn({ unknown: n }, 'status events for unknown message references');
  }

  private async writeBatch(events: RecipientEvent[]): Promise<void> {
    try {
      const { unknown } = await this.write(events);
      this.stats.batches++;
      this.stats.events += events.length;
      this.countUnknown(unknown);
    } catch (err) {
      this.stats.failedBatches++;
      this.log.error({ err, events: events.length }, 'status batch failed');
      throw err;
    }
  }
}

/**
 * The app's batch write: the statement, then in the same transaction the live NOTIFY for the
 * campaigns it touched (those `progress` lets through now; the others get its trailing one),
 * a finalize request for those whose sending already ended and which are
 * not settled yet (a batch may have given their last recipients a final state), and the report
 * of those settled already brought in step with the late moves (settle/delivery-report.repo.ts's rule).
 */
export function transactionalBatchWrite(
  ctx: Pick<AppContext, 'db' | 'log'>,
  progress: ProgressThrottle = progressThrottleFor(ctx),
): BatchWrite {
  return (events) =>
    retryingConflicts(
      () => writeOnce(ctx, progress, events),
      STATUS_WRITE_TRIES,
      (attempt) => 10 * attempt * (0.5 + Math.random()),
    );
}

/** The throttle of a writer's live NOTIFYs, its trailing ones sent on their own. */
export function progressThrottleFor(ctx: Pick<AppContext, 'db' | 'log'>): ProgressThrottle {
  return new ProgressThrottle((ids) =>
    publishCampaignProgress(ctx.db, ids).catch((err: unknown) => {
      ctx.log.warn({ err }, 'live progress of status events not published');
    }),
  );
}

/** Tries a batch that lost a deadlock or a serialization conflict again, a few times. */
const STATUS_WRITE_TRIES = 4;

function writeOnce(
  ctx: Pick<AppContext, 'db'>,
  progress: ProgressThrottle,
  events: RecipientEvent[],
) {
  return ctx.db.transaction().execute(async (tx) => {
    const result = await applyStatusBatch(tx, events);
    // The provider's opt-outs go on their owners' lists with the batch (docs/delivery.md,
    // Opt-outs).
    await suppressFromProvider(
      tx,
      events.filter((e) => e.optedOut),
    );
    await publishCampaignProgress(tx, progress.take(result.campaigns.map((c) => c.id)));
    for (const c of result.campaigns) {
      if (c.settled) {
        await applyLateMoves(
          tx,
          c.id,
          result.late.filter((m) => m.campaignId === c.id),
        );
      } else if (c.dispatchState === 'done' || c.dispatchState === 'cancelled') {
        await requestFinalize(tx, c.id);
      }
    }
    return { unknown: result.unknown };
  });
}
