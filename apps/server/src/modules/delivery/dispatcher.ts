import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../db/database.js';
import type { Log } from '../../jobs/worker-logger.js';
import { campaignsDir } from '../campaigns/campaign-files.js';
import { publishCampaignProgress } from '../live/campaign-progress.js';
import { addDispatchJob, addDispatchJobs } from './dispatch-jobs.js';
import { ResultWriter } from './dispatch-pipeline.js';
import { groupSize, sendRows, type Sender } from './dispatch-send.js';
import {
  claimBatch,
  loadDispatchCampaign,
  mediaOf,
  type DispatchCampaign,
} from './dispatch.repo.js';
import {
  markDoneIfFinished,
  markWaiting,
  remainingWork,
  touchHeartbeat,
} from './dispatch-progress.repo.js';
import { requestFinalize } from './finalize-request.js';
import type { OutboundMessage, ProviderAdapter } from './providers/provider.js';
import { bucketCapacity, giveBack, takeTokens } from './rate-bucket.js';
import type { SendLimiter } from './send-limiter.js';

/**
 * One slice of sending a campaign (issue 14), run by a `delivery-dispatch` job: for about
 * `sliceMs` it takes tokens from the sender's shared bucket, claims that many recipients,
 * sends them through the provider's adapter and writes the answers; the next batch is claimed
 * while the last one's answers are still being written (dispatch-pipeline.ts). Each
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
  // A batch is the sender's whole (short) bucket, so batches stay as large as the rate allows.
  const want = Math.min(options.batchMax, bucketCapacity(campaign.rate_per_second));
  const writer = new ResultWriter(db, campaignId, senderId);
  const sender: Sender = {
    adapter,
    build: await messageBuilder(deps, campaign),
    options,
    backoff: (attempt) => backoffMs(attempt, options),
  };
  // Messages per provider request (1 unless the adapter sends batches).
  const group = groupSize(adapter, deps.limiter.limit);
  const endAt = Date.now() + options.sliceMs;

  // Each batch's sends start as places free up (SendLimiter); their results are written by
  // the writer while the next batch is claimed, so the round trips overlap.
  while (Date.now() < endAt && writer.failed === undefined) {
    const grant = await takeTokens(db, senderId, want);
    if (grant.granted === 0) {
      if (grant.dailyExhausted) {
        await writer.drain();
        return waitForNextDay(deps, campaignId);
      }
      await sleep(Math.min(grant.waitMs, 250, Math.max(1, endAt - Date.now())));
      continue;
    }
    const claim = await claimBatch(db, campaignId, grant.granted, options.leaseMs);
    const claimed = claim.stopped ? [] : claim.rows;
    const unused = grant.granted - claimed.length;
    if (unused > 0) await giveBack(db, senderId, grant.day, { tokens: unused, usage: unused });
    if (claim.stopped) return writer.drain(); // paused, cancelled or no longer Processing
    if (claimed.length === 0) break;

    for (let i = 0; i < claimed.length; i += group) {
      const rows = claimed.slice(i, i + group);
      const releases = await deps.limiter.acquireMany(rows.length);
      // sendRows never rejects: every failure is a result.
      void sendRows(sender, rows).then((results) =>
        results.forEach((r, j) => writer.add(r, grant.day, releases[j] as () => void)),
      );
    }
  }
  await writer.drain();
  await scheduleNext(deps, campaignId, slot);
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
