import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../db/database.js';
import type { Log } from '../../jobs/worker-logger.js';
import { campaignsDir } from '../campaigns/campaign-files.js';
import { publishCampaignProgress } from '../live/campaign-progress.js';
import { addDispatchJob, addDispatchJobs } from './dispatch-jobs.js';
import {
  claimBatch,
  loadDispatchCampaign,
  mediaOf,
  writeResults,
  type Claimed,
  type DispatchCampaign,
  type SendResult,
} from './dispatch.repo.js';
import {
  markDoneIfFinished,
  markWaiting,
  remainingWork,
  touchHeartbeat,
} from './dispatch-progress.repo.js';
import { requestFinalize } from './finalize-request.js';
import {
  ProviderSendError,
  type OutboundMessage,
  type ProviderAdapter,
} from './providers/provider.js';
import { bucketCapacity, giveBack, takeTokens, throttleSender } from './rate-bucket.js';
import type { SendLimiter } from './send-limiter.js';

/**
 * One slice of sending a campaign (issue 14), run by a `delivery-dispatch` job: for about
 * `sliceMs` it takes tokens from the sender's shared bucket, claims that many recipients,
 * sends them through the provider's adapter and writes the answers, one batch at a time. Each
 * claim re-checks the campaign (Processing and running), so a pause or cancel stops every
 * instance at its next batch. At the end the slice schedules its own next run, or, when
 * nothing is left to send or in flight, ends the sending and asks for the settlement.
 */

export interface DispatchOptions {
  maxAttempts: number;
  /** A row `sending` this long belongs to a dead instance and is claimed again. */
  leaseMs: number;
  /** Retry backoff: base·2^(attempt−1), at most max, with jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How long one job sends before it hands over to the next. */
  sliceMs: number;
  /** A batch is at most this many messages (and at most the sender's bucket). */
  batchMax: number;
  /** A send that has not answered by then counts as a transient failure. */
  sendTimeoutMs: number;
}

export const DEFAULT_DISPATCH_OPTIONS: Omit<DispatchOptions, 'maxAttempts'> = {
  leaseMs: 60_000,
  backoffBaseMs: 2_000,
  backoffMaxMs: 10 * 60_000,
  sliceMs: 5_000,
  batchMax: 500,
  sendTimeoutMs: 30_000,
};

export interface DispatchDeps {
  db: Db;
  delivery: { adapterFor(provider: string): ProviderAdapter };
  uploadsDir: string;
  limiter: SendLimiter;
  log: Log;
  options: DispatchOptions;
}

/** The wait before retry number `attempt + 1`: exponential, capped, with jitter. */
export function backoffMs(
  attempt: number,
  o: Pick<DispatchOptions, 'backoffBaseMs' | 'backoffMaxMs'>,
) {
  const full = Math.min(o.backoffMaxMs, o.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(full * (0.5 + Math.random() * 0.5));
}

/** Runs one slice of slot `slot` of a campaign's sending. */
export async function runDispatchSlice(
  deps: DispatchDeps,
  campaignId: string,
  slot: number,
): Promise<void> {
  const { db, options } = deps;
  const campaign = await loadDispatchCampaign(db, campaignId);
  if (!campaign || campaign.status !== 'Processing') return;
  if (campaign.dispatch_state !== 'running' && campaign.dispatch_state !== 'waiting') return;
  if (!campaign.sender_id || !campaign.provider || campaign.rate_per_second === null) {
    deps.log.error({ component: 'delivery', campaignId }, 'campaign has no sender; not sent');
    return;
  }
  const senderId = campaign.sender_id;
  const adapter = deps.delivery.adapterFor(campaign.provider);
  const build = await messageBuilder(deps, campaign);
  // A batch never outgrows the sends this instance may have in flight: what a crash can leave
  // sent but unwritten (the duplicates after a restart) stays within that bound.
  const want = Math.min(
    options.batchMax,
    deps.limiter.limit,
    bucketCapacity(campaign.rate_per_second),
  );
  const endAt = Date.now() + options.sliceMs;

  while (Date.now() < endAt) {
    const grant = await takeTokens(db, senderId, want);
    if (grant.granted === 0) {
      if (grant.dailyExhausted) return waitForNextDay(deps, campaignId);
      await sleep(Math.min(grant.waitMs, 250, Math.max(1, endAt - Date.now())));
      continue;
    }
    const claim = await claimBatch(db, campaignId, grant.granted, options.leaseMs);
    const claimed = claim.stopped ? [] : claim.rows;
    const unused = grant.granted - claimed.length;
    if (unused > 0) await giveBack(db, senderId, grant.day, { tokens: unused, usage: unused });
    if (claim.stopped) return; // paused, cancelled or no longer Processing: no next run
    if (claimed.length === 0) break;

    const results = await Promise.all(claimed.map((r) => sendOne(deps, adapter, build, r)));
    await withDeadlockRetry(() =>
      progressDue(campaignId)
        ? db.transaction().execute(async (tx) => {
            await writeResults(tx, campaignId, results);
            await publishCampaignProgress(tx, [campaignId]);
          })
        : writeResults(db, campaignId, results),
    );
    const notAccepted = results.filter((r) => r.state !== 'sent').length;
    if (notAccepted > 0) await giveBack(db, senderId, grant.day, { tokens: 0, usage: notAccepted });
    const throttled = results.find(isSenderThrottle);
    if (throttled) await throttleSender(db, senderId, throttledFor(results));
  }
  await scheduleNext(deps, campaignId, slot);
}

/** Open campaign pages reload on a progress NOTIFY: at most this often per campaign. */
export const PROGRESS_EVERY_MS = 200;
const lastProgress = new Map<string, number>();

/**
 * Whether this batch's write should publish the campaign's progress: the first batch, then
 * one every PROGRESS_EVERY_MS on this instance (the end of the sending always publishes).
 */
function progressDue(campaignId: string): boolean {
  const now = Date.now();
  const last = lastProgress.get(campaignId);
  if (last !== undefined && now - last < PROGRESS_EVERY_MS) return false;
  lastProgress.set(campaignId, now);
  if (lastProgress.size > 1000) lastProgress.delete(lastProgress.keys().next().value as string);
  return true;
}

/**
 * A batch's answers must be written, or its rows wait out their lease and are sent again: a
 * deadlock with a status batch touching the same rows in another order is simply retried.
 */
async function withDeadlockRetry(write: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : null;
      if (attempt >= 5 || (code !== '40P01' && code !== '40001')) throw err;
      await sleep(20 * attempt);
    }
  }
}

type Build = (phone: string) => OutboundMessage;

async function messageBuilder(deps: DispatchDeps, c: DispatchCampaign): Promise<Build> {
  const dir = campaignsDir(deps.uploadsDir);
  const media = (await mediaOf(deps.db, c.id)).map((f) => ({
    kind: f.kind,
    path: path.join(dir, f.stored_name),
    mime: f.mime,
  }));
  const call = c.cta_call ? { number: c.cta_call, text: c.cta_call_text ?? '' } : undefined;
  const url = c.cta_url ? { url: c.cta_url, text: c.cta_url_text ?? '' } : undefined;
  const cta = call || url ? { ...(call && { call }), ...(url && { url }) } : null;
  return (phone) => ({
    reference: `${c.id}:${phone}`,
    campaignId: c.id,
    to: phone,
    creditType: c.credit_type,
    message: c.message,
    media,
    cta,
  });
}

/** Marks a sender-wide rate-limit answer among a batch's results (not counted as a try). */
const isSenderThrottle = (r: SendResult) => r.state === 'queued' && !r.counted;

/** The longest Retry-After among a batch's rate-limit answers, when the provider gave one. */
function throttledFor(results: readonly SendResult[]): number | undefined {
  const waits = results.flatMap((r) =>
    r.state === 'queued' && r.throttleMs !== undefined ? [r.throttleMs] : [],
  );
  return waits.length > 0 ? Math.max(...waits) : undefined;
}

async function sendOne(
  deps: DispatchDeps,
  adapter: ProviderAdapter,
  build: Build,
  row: Claimed,
): Promise<SendResult> {
  const { options } = deps;
  const base = { phone: row.phone, attempts: row.attempts };
  try {
    const accepted = await deps.limiter.run(() =>
      adapter.send(build(row.phone), AbortSignal.timeout(options.sendTimeoutMs)),
    );
    return { ...base, state: 'sent', providerMessageId: accepted.providerMessageId };
  } catch (err) {
    const error =
      err instanceof ProviderSendError
        ? err.error
        : { code: 'network', text: err instanceof Error ? err.message : String(err) };
    const kind = err instanceof ProviderSendError ? adapter.classifyError(error) : 'retryable';
    const { code, text } = error;
    if (kind === 'permanent') return { ...base, state: 'failed', code, text };
    if (kind === 'throttled') {
      // The provider's rate, not this recipient: back in the queue, the try not counted.
      const wait =
        error.retryAfterSeconds === undefined ? undefined : error.retryAfterSeconds * 1000;
      const retryAt = new Date(Date.now() + (wait ?? 0));
      return { ...base, state: 'queued', code, text, retryAt, counted: false, throttleMs: wait };
    }
    // Transient, or this recipient's own limit (131056): only this row waits.
    if (row.attempts >= options.maxAttempts) return { ...base, state: 'failed', code, text };
    const retryAt = new Date(Date.now() + backoffMs(row.attempts, options));
    return { ...base, state: 'queued', code, text, retryAt, counted: true };
  }
}

/** The daily limit is reached: wait for the next UTC day, with the jobs set for then. */
async function waitForNextDay(deps: DispatchDeps, campaignId: string): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    const resumeAt = await markWaiting(tx, campaignId);
    if (resumeAt) {
      await addDispatchJobs(tx, campaignId, resumeAt);
      await publishCampaignProgress(tx, [campaignId]);
    }
  });
}

/**
 * After a slice: run again now while there is work; later, at the next retry or the end of a
 * lease, while only those remain; otherwise the sending is over and the settlement is asked.
 */
async function scheduleNext(deps: DispatchDeps, campaignId: string, slot: number): Promise<void> {
  const { db } = deps;
  const left = await remainingWork(db, campaignId);
  if (left.workNow) return addDispatchJob(db, campaignId, slot);
  const later = [left.nextRetryAt, left.leaseEndsAt]
    .filter((d): d is Date => d !== null)
    .sort((a, b) => a.getTime() - b.getTime())[0];
  if (later) {
    await touchHeartbeat(db, campaignId);
    return addDispatchJob(db, campaignId, slot, later);
  }
  await db.transaction().execute(async (tx) => {
    await tx
      .selectFrom('campaigns')
      .select('id')
      .where('id', '=', campaignId)
      .forUpdate()
      .execute();
    if (await markDoneIfFinished(tx, campaignId)) {
      await requestFinalize(tx, campaignId);
      await publishCampaignProgress(tx, [campaignId]);
    }
  });
}
