import type { Db } from '../../../db/database.js';
import { GroupCommit, retryingConflicts } from '../group-commit.js';
import { publishCampaignProgress } from '../../live/index.js';
import { suppressFromProvider } from '../../suppressions/suppressions.service.js';
import { writeResults, type SendResult } from './dispatch.repo.js';
import { giveBack, throttleSender } from './rate-bucket.repo.js';
import { pauseForProvider } from './dispatch-control.service.js';

/**
 * The write side of a dispatch slice: sends answer one by one, and their results
 * are written in groups (one statement each), a group leaving as soon as the previous one
 * committed, while the slice already claims and sends its next batch. Each result holds its
 * send's place in the SendLimiter until its group is committed, so the messages sent but not
 * yet written never exceed the configured concurrency (the crash duplicate bound), however
 * deep the pipeline. After each group: usage of sends the provider did not accept is given
 * back, and a sender-wide rate-limit answer slows the sender on every instance.
 */

interface Pending {
  result: SendResult;
  /** The UTC day the send's token was counted on (rate-bucket Grant.day). */
  day: string;
  release: () => void;
}

export class ResultWriter {
  private readonly groups = new GroupCommit<Pending>((group) => this.writeGroup(group));
  private failure: { err: unknown } | null = null;

  constructor(
    private readonly db: Db,
    private readonly campaignId: string,
    private readonly senderId: string,
    /** The provider's name when its accepted ids must be recorded (writeResults' refsProvider). */
    private readonly refsProvider: string | null = null,
  ) {}

  /** Queues a send's result; its place is given back once the result is committed. */
  add(result: SendResult, day: string, release: () => void): void {
    // A failed group is recorded in `failed` (writeGroup); nobody needs this promise.
    void this.groups.submit([{ result, day, release }]);
  }

  /** The first write that failed, if any (the slice stops; its rows go back once it is gone). */
  get failed(): unknown {
    return this.failure?.err;
  }

  /** Resolves when everything queued so far is written; throws the first write failure. */
  async drain(): Promise<void> {
    await this.groups.drained();
    if (this.failure) throw this.failure.err;
  }

  private async writeGroup(group: Pending[]): Promise<void> {
    try {
      await this.write(group);
    } catch (err) {
      this.failure ??= { err };
      throw err;
    } finally {
      for (const p of group) p.release();
    }
  }

  private async write(group: Pending[]): Promise<void> {
    const { db, campaignId, senderId, refsProvider } = this;
    const results = group.map((p) => p.result);
    // Numbers the provider says stopped the sender's messages: suppressed in the same transaction.
    const optedOut = results.flatMap((r) =>
      r.state === 'failed' && r.optedOut ? [{ campaignId, phone: r.phone }] : [],
    );
    await retryingConflicts(
      () =>
        progressDue(campaignId) || optedOut.length > 0
          ? db.transaction().execute(async (tx) => {
              await writeResults(tx, campaignId, results, refsProvider);
              await suppressFromProvider(tx, optedOut);
              await publishCampaignProgress(tx, [campaignId]);
            })
          : writeResults(db, campaignId, results, refsProvider),
      RESULT_WRITE_TRIES,
      (attempt) => 20 * attempt,
    );
    const notAccepted = new Map<string, number>();
    for (const p of group) {
      if (p.result.state !== 'sent') notAccepted.set(p.day, (notAccepted.get(p.day) ?? 0) + 1);
    }
    for (const [day, usage] of notAccepted) await giveBack(db, senderId, day, { tokens: 0, usage });
    if (results.some(isSenderThrottle)) await throttleSender(db, senderId, throttledFor(results));
    const pause = results.find((r) => r.state === 'queued' && r.pauseCampaign);
    if (pause?.state === 'queued') {
      await db.transaction().execute((tx) => pauseForProvider(tx, campaignId, pause.text));
    }
  }
}

/**
 * A group's answers must be written, or its rows stay in flight until the slice's presence is
 * gone and are sent again: a deadlock with a status batch touching the same rows in another
 * order is simply retried, this many times in all.
 */
const RESULT_WRITE_TRIES = 5;

/** Open campaign pages reload on a progress NOTIFY: at most this often per campaign. */
export const PROGRESS_EVERY_MS = 200;
const lastProgress = new Map<string, number>();

/**
 * Whether this write should publish the campaign's progress: the first, then one every
 * PROGRESS_EVERY_MS on this instance (the end of the sending always publishes).
 */
function progressDue(campaignId: string): boolean {
  const now = Date.now();
  const last = lastProgress.get(campaignId);
  if (last !== undefined && now - last < PROGRESS_EVERY_MS) return false;
  lastProgress.set(campaignId, now);
  if (lastProgress.size > 1000) lastProgress.delete(lastProgress.keys().next().value as string);
  return true;
}

/** Marks a sender-wide rate-limit answer among results (not counted as a try). */
const isSenderThrottle = (r: SendResult) => r.state === 'queued' && !r.counted && !r.pauseCampaign;

/** The longest Retry-After among the rate-limit answers, when the provider gave one. */
function throttledFor(results: readonly SendResult[]): number | undefined {
  const waits = results.flatMap((r) =>
    r.state === 'queued' && r.throttleMs !== undefined ? [r.throttleMs] : [],
  );
  return waits.length > 0 ? Math.max(...waits) : undefined;
}
