import { setTimeout as sleep } from 'node:timers/promises';
import type { Db, Tx } from '../../../db/database.js';
import type { Log } from '../../../jobs/worker-logger.js';
import { campaignFileKey } from '../../campaigns/index.js';
import { publishCampaignProgress } from '../../live/index.js';
import { addLaneJob, addLaneJobs } from './dispatch-lanes.js';
import { ResultWriter } from './result-writer.js';
import { groupSize, sendRows, type Sender } from './dispatch-send.js';
import {
  claimBatch,
  loadDispatchCampaign,
  mediaOf,
  type DispatchCampaign,
} from './dispatch.repo.js';
import {
  heldByQuietHours,
  lockCampaignRow,
  markDoneIfFinished,
  markWaiting,
  releaseOrphans,
  remainingWork,
  touchHeartbeat,
} from './dispatch-progress.repo.js';
import type { DispatchPresence } from './presence.js';
import { requestFinalize } from '../settle/finalize-request.js';
import type { OutboundMessage } from '../providers/provider.js';
import type { Delivery } from '../delivery-context.js';
import { bucketCapacity, giveBack, takeTokens } from './rate-bucket.repo.js';
import type { SendLimiter } from './send-limiter.js';
import { quietNow, type QuietNow } from './quiet-window.js';

/**
 * One slice of sending a campaign, run by a `delivery-dispatch` job: for about
 * `sliceMs` it takes tokens from the sender's shared bucket, claims that many recipients,
 * sends them through the provider's adapter and writes the answers; the next batch is claimed
 * while the last one's answers are still being written (result-writer.ts). Each
 * claim re-checks the campaign (Processing and running), so a pause or cancel stops every
 * instance at its next batch. Claims are made under this instance's presence key, so a
 * restart after a crash takes the dead instance's rows at once (presence.ts). At the
 * end, once its sends are written, the slice schedules its own next run, or, when nothing is
 * left to send or in flight, ends the sending and asks for the settlement.
 */

export interface DispatchOptions {
  maxAttempts: number;
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
  backoffBaseMs: 2_000,
  backoffMaxMs: 10 * 60_000,
  sliceMs: 5_000,
  batchMax: 500,
  sendTimeoutMs: 30_000,
};

export interface DispatchDeps {
  db: Db;
  delivery: Pick<Delivery, 'senderAdapter'>;
  limiter: SendLimiter;
  /** This instance's presence: claims are made under its key, held while they are unwritten. */
  presence: DispatchPresence;
  log: Log;
  options: DispatchOptions;
  /** The clock quiet hours are read by (tests set it); the real time when not given. */
  now?: () => Date;
}

/** The wait before retry number `attempt + 1`: exponential, capped, with jitter. */
export function backoffMs(
  attempt: number,
  o: Pick<DispatchOptions, 'backoffBaseMs' | 'backoffMaxMs'>,
) {
  const full = Math.min(o.backoffMaxMs, o.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(full * (0.5 + Math.random() * 0.5));
}

/** Runs one slice of lane `lane` of a campaign's sending (dispatch-lanes.ts). */
export async function runDispatchSlice(
  deps: DispatchDeps,
  campaignId: string,
  lane: number,
): Promise<void> {
  const { db, options } = deps;
  const campaign = await loadDispatchCampaign(db, campaignId);
  if (!campaign || campaign.status !== 'Processing') return;
  if (campaign.dispatch_state !== 'running' && campaign.dispatch_state !== 'waiting') return;
  const { provider } = campaign;
  if (!campaign.sender_id || !provider || campaign.rate_per_second === null) {
    deps.log.error({ component: 'delivery', campaignId }, 'campaign has no sender; not sent');
    return;
  }
  // A disabled provider sends nothing: its campaigns wait and look again (docs/delivery.md,
  // Providers in the database).
  if (!provider.enabled) return waitForProvider(deps, campaignId);
  const sender: Sender = {
    adapter: deps.delivery.senderAdapter({ ...provider, address: campaign.address ?? '' }),
    build: await messageBuilder(deps, campaign),
    options,
    backoff: (attempt) => backoffMs(attempt, options),
  };
  const writer = new ResultWriter(
    db,
    campaignId,
    campaign.sender_id,
    sender.adapter.reportsByProviderId ? sender.adapter.name : null,
  );
  const sends: Promise<void>[] = [];
  // Quiet hours (docs/delivery.md): which of the campaign's zones are closed, read at each claim.
  const { quiet: window, zones } = campaign;
  const clock = deps.now ?? (() => new Date());
  const quiet = window ? () => quietNow(window, zones, clock()) : null;
  const key = await deps.presence.enter();
  let end: SliceEnd | undefined;
  let written = false;
  try {
    // Rows a dead instance held go first (its sends in flight; at most that many duplicates).
    await releaseOrphans(db, campaignId);
    end = await sendFor(deps, {
      campaignId,
      senderId: campaign.sender_id,
      // A batch is the sender's whole (short) bucket: batches as large as the rate allows.
      want: Math.min(options.batchMax, bucketCapacity(campaign.rate_per_second)),
      sender,
      writer,
      key,
      sends,
      quiet,
    });
  } finally {
    // The rows are this instance's until their results are written: the presence stays till then.
    try {
      await Promise.all(sends);
      await writer.drain();
      // A loop that threw may have claimed rows it never sent.
      written = end !== undefined;
    } finally {
      void deps.presence.leave(written);
    }
  }
  if (end === 'daily') return waitForNextDay(deps, campaignId);
  if (end === 'next') await scheduleNext(deps, campaignId, lane, quiet?.() ?? null);
  // Cancelled with sends in flight: the settlement waited for them, and they are written now.
  if (end === 'stopped' && sends.length > 0) await requestFinalize(db, campaignId);
}

/** How a slice ended: time is up or nothing is left now, the campaign stopped, the daily limit. */
type SliceEnd = 'next' | 'stopped' | 'daily';

/**
 * The slice's loop: for about `sliceMs`, takes tokens from the sender's shared bucket, claims
 * that many recipients and starts their sends (`sends`), whose results the writer commits while
 * the next batch is claimed, so the round trips overlap. A presence lost meanwhile (its
 * session gone) stops it: the rows claimed under its key are then others' to send.
 */
interface Slice {
  campaignId: string;
  senderId: string;
  /** Tokens asked for each batch. */
  want: number;
  sender: Sender;
  writer: ResultWriter;
  /** The presence key claims are made under. */
  key: number;
  /** Each started send, settled once its results are queued to the writer. */
  sends: Promise<void>[];
  /** The campaign's zones in quiet hours now; null for a campaign without quiet hours. */
  quiet: (() => QuietNow) | null;
}

async function sendFor(deps: DispatchDeps, slice: Slice): Promise<SliceEnd> {
  const { db, options, presence } = deps;
  const { campaignId, senderId, want, sender, writer, key, sends } = slice;
  // Messages per provider request (1 unless the adapter sends batches).
  const group = groupSize(sender.adapter, deps.limiter.limit);
  const endAt = Date.now() + options.sliceMs;
  while (Date.now() < endAt && writer.failed === undefined && presence.holds(key)) {
    const grant = await takeTokens(db, senderId, want);
    if (grant.granted === 0) {
      if (grant.dailyExhausted) return 'daily';
      await sleep(Math.min(grant.waitMs, 250, Math.max(1, endAt - Date.now())));
      continue;
    }
    const closed = slice.quiet?.().closed;
    const claim = await claimBatch(db, campaignId, grant.granted, key, closed && { closed });
    const claimed = claim.stopped ? [] : claim.rows;
    const unused = grant.granted - claimed.length;
    if (unused > 0) await giveBack(db, senderId, grant.day, { tokens: unused, usage: unused });
    if (claim.stopped) return 'stopped'; // paused, cancelled or no longer Processing
    // A batch of opted-out numbers only (docs/delivery.md, Opt-outs): claim the next one.
    if (claimed.length === 0 && claim.optedOut > 0) continue;
    if (claimed.length === 0) break;

    for (let i = 0; i < claimed.length && presence.holds(key); i += group) {
      const rows = claimed.slice(i, i + group);
      const releases = await deps.limiter.acquireMany(rows.length);
      // sendRows never rejects: every failure is a result.
      sends.push(
        sendRows(sender, rows).then((results) =>
          results.forEach((r, j) => writer.add(r, grant.day, releases[j] as () => void)),
        ),
      );
    }
  }
  return 'next';
}

type Build = (phone: string) => OutboundMessage;

async function messageBuilder(deps: DispatchDeps, c: DispatchCampaign): Promise<Build> {
  const media = (await mediaOf(deps.db, c.id)).map((f) => ({
    kind: f.kind,
    key: campaignFileKey(f.stored_name),
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
    ...(c.template && { template: c.template }),
  });
}

/** How long a campaign of a disabled provider waits before it looks again. */
export const DISABLED_PROVIDER_WAIT_MS = 60_000;

async function waitForProvider(deps: DispatchDeps, campaignId: string): Promise<void> {
  await waitUntil(deps, campaignId, new Date(Date.now() + DISABLED_PROVIDER_WAIT_MS));
}

/** The daily limit is reached: wait for the next UTC day, with the jobs set for then. */
async function waitForNextDay(deps: DispatchDeps, campaignId: string): Promise<void> {
  await waitUntil(deps, campaignId);
}

/** The campaign waits until `until`, or the next UTC midnight when not given. */
async function waitUntil(deps: DispatchDeps, campaignId: string, until?: Date): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    const resumeAt = await markWaiting(tx, campaignId, until);
    if (resumeAt) {
      await addLaneJobs(tx, campaignId, resumeAt);
      await publishCampaignProgress(tx, [campaignId]);
    }
  });
}

/**
 * Every recipient left is in a zone in quiet hours (docs/delivery.md, Quiet hours): the
 * campaign waits, its lane jobs set for when the first of those zones opens, and the screens
 * say "Waiting for quiet hours to end". Called under the campaign's lock.
 */
async function waitForQuietHours(tx: Tx, campaignId: string, opensAt: Date): Promise<void> {
  const resumeAt = await markWaiting(tx, campaignId, opensAt, true);
  if (resumeAt) {
    await addLaneJobs(tx, campaignId, resumeAt);
    await publishCampaignProgress(tx, [campaignId]);
  }
}

/**
 * After a slice: run again now while there is work; later, at the next retry (or when a zone
 * in quiet hours opens, if sooner), while only retries remain; when what is left is held by
 * quiet hours only, wait for them to end; otherwise the sending is over and the settlement is
 * asked.
 */
async function scheduleNext(
  deps: DispatchDeps,
  campaignId: string,
  lane: number,
  quiet: QuietNow | null,
): Promise<void> {
  const { db } = deps;
  const closed = quiet?.closed ?? [];
  const left = await remainingWork(db, campaignId, closed);
  if (left.workNow) return addLaneJob(db, campaignId, lane);
  const opensAt =
    quiet?.opensAt && (await heldByQuietHours(db, campaignId, closed)) ? quiet.opensAt : null;
  const later = [left.nextRetryAt, left.givenBackAt]
    .filter((d): d is Date => d !== null)
    .sort((a, b) => a.getTime() - b.getTime())[0];
  if (later) {
    await touchHeartbeat(db, campaignId);
    return addLaneJob(db, campaignId, lane, opensAt && opensAt < later ? opensAt : later);
  }
  await db.transaction().execute(async (tx) => {
    await lockCampaignRow(tx, campaignId);
    if (await markDoneIfFinished(tx, campaignId)) {
      await requestFinalize(tx, campaignId);
      await publishCampaignProgress(tx, [campaignId]);
    } else if (opensAt) {
      await waitForQuietHours(tx, campaignId, opensAt);
    }
  });
}
