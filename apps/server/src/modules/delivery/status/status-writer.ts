import type { AppContext, Log } from '../../../context.js';
import { GroupCommit, retryingConflicts } from '../group-commit.js';
import { publishCampaignProgress } from '../../live/index.js';
import { suppressFromProvider } from '../../suppressions/suppressions.service.js';
import { applyLateMoves } from '../settle/delivery-report.repo.js';
import { requestFinalize } from '../settle/finalize-request.js';
import { ProgressThrottle } from './progress-throttle.js';
import type { StatusEvent } from '../providers/provider.js';
import { pauseForProvider } from '../dispatch/dispatch-control.service.js';
import { applyStatusBatch } from './status.repo.js';
import { resolveProviderIds, type EventSource, type WriterEvent } from './provider-ids.js';

export type { EventSource, WriterEvent } from './provider-ids.js';

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
export type BatchWrite = (events: WriterEvent[]) => Promise<{ unknown: number }>;

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

/**
 * The writer's form of a provider event: by its reference, else (for `source`'s provider) by
 * the provider's message id; null when it names neither.
 */
export function toRecipientEvent(e: StatusEvent, source?: EventSource): WriterEvent | null {
  const failed = e.state === 'failed';
  const common = {
    state: e.state,
    at: e.at,
    errorCode: failed ? (e.error?.code ?? null) : null,
    errorText: failed ? (e.error?.text ?? null) : null,
    ...(failed && e.error && source?.pauses?.(e.error) ? { pauseCampaign: true } : {}),
    ...(failed && e.error && source?.optedOut?.(e.error) ? { optedOut: true } : {}),
  };
  const ref = e.reference === null ? null : parseReference(e.reference);
  if (ref) {
    return {
      ...common,
      campaignId: ref.campaignId,
      phone: ref.phone,
      providerMessageId: e.providerMessageId,
    };
  }
  if (e.reference === null && e.providerMessageId && source) {
    return {
      ...common,
      campaignId: null,
      phone: null,
      provider: source.provider,
      providerMessageId: e.providerMessageId,
    };
  }
  return null;
}

export class StatusWriter {
  private readonly batches: GroupCommit<WriterEvent>;
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
   * `source` names the provider, for events that carry only its message id, and how its
   * adapter reads a failure (a pause of the campaign, an opt-out that suppresses the number).
   */
  submit(incoming: readonly StatusEvent[], source?: EventSource): Promise<void> {
    if (this.closed) return Promise.reject(new Error('status writer closed'));
    const events: WriterEvent[] = [];
    for (const e of incoming) {
      const r = toRecipientEvent(e, source);
      if (r) events.push(r);
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

  private async writeBatch(events: WriterEvent[]): Promise<void> {
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

function writeOnce(ctx: Pick<AppContext, 'db'>, progress: ProgressThrottle, batch: WriterEvent[]) {
  return ctx.db.transaction().execute(async (tx) => {
    const { events, unknown: unresolved } = await resolveProviderIds(tx, batch);
    const result = await applyStatusBatch(tx, events);
    // A failure the provider says must stop the campaign (spam limit, paused template) pauses
    // it, as the send path does; only campaigns this batch moved, so a repeated old event does
    // not pause again a campaign the Admin resumed.
    const pauses = new Map<string, string>();
    for (const e of events) {
      if (e.pauseCampaign) pauses.set(e.campaignId, e.errorText ?? e.errorCode ?? '');
    }
    // The provider's opt-outs go on their owners' lists with the batch (docs/delivery.md,
    // Opt-outs).
    await suppressFromProvider(
      tx,
      events.filter((e) => e.optedOut),
    );
    await publishCampaignProgress(tx, progress.take(result.campaigns.map((c) => c.id)));
    for (const c of result.campaigns) {
      const reason = pauses.get(c.id);
      if (reason !== undefined && !c.settled) await pauseForProvider(tx, c.id, reason);
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
    return { unknown: result.unknown + unresolved };
  });
}
