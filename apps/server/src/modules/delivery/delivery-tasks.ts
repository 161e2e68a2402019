import { z } from 'zod';
import { parseCronItems, type ParsedCronItem, type TaskList } from 'graphile-worker';
import type { AppContext } from '../../context.js';
import { addJob, TASKS } from '../../jobs/job-queue.js';
import { addLaneJobs } from './dispatch/dispatch-lanes.js';
import {
  freshestHeartbeat,
  releaseOrphans,
  releaseStoppedOrphans,
  stalledCampaigns,
  touchHeartbeat,
} from './dispatch/dispatch-progress.repo.js';
import { DispatchPresence } from './dispatch/presence.js';
import {
  DEFAULT_DISPATCH_OPTIONS,
  runDispatchSlice,
  type DispatchOptions,
} from './dispatch/dispatcher.js';
import { requestFinalize } from './settle/finalize-request.js';
import { runFinalize } from './settle/finalize.js';
import { SendLimiter } from './dispatch/send-limiter.js';

/**
 * The delivery engine's jobs: a dispatch slice, the settlement, and the watchdog
 * that gives a campaign left running by a stopped or killed instance its jobs again. The
 * watchdog runs every minute, and when a runner starts: at once, and again as soon as the
 * newest heartbeat of a campaign being sent has gone stale, so a restart resumes in seconds.
 * A killed instance that had sends in flight is known dead at once (its presence lock went
 * with its connection): the first run already gives its rows and its campaigns back. Which
 * of the two mechanisms covers which case: docs/delivery.md, Dead instances.
 */

/** A running campaign without a heartbeat for this long, and no live job, has stalled. */
export const STALL_MS = 15_000;

/** A lane's job; jobs queued before lanes had their name carry `slot`. */
const DispatchPayload = z
  .object({
    campaignId: z.uuid(),
    lane: z.number().int().min(0).optional(),
    slot: z.number().int().min(0).optional(),
  })
  .transform((p) => ({ campaignId: p.campaignId, lane: p.lane ?? p.slot ?? 0 }));
const CampaignPayload = z.object({ campaignId: z.uuid() });

/** One presence per app instance (its context), however often its task list is built. */
const presences = new WeakMap<AppContext['db'], DispatchPresence>();

export function presenceOf(ctx: Pick<AppContext, 'db' | 'databaseUrl'>): DispatchPresence {
  let p = presences.get(ctx.db);
  if (!p) presences.set(ctx.db, (p = new DispatchPresence(ctx.databaseUrl)));
  return p;
}

export function deliveryTasks(ctx: AppContext, overrides: Partial<DispatchOptions> = {}): TaskList {
  // One limiter per runner: the in-flight bound holds for every slice this instance runs.
  const deps = {
    db: ctx.db,
    delivery: ctx.delivery,
    limiter: new SendLimiter(ctx.config.delivery.concurrency),
    presence: presenceOf(ctx),
    log: ctx.log,
    options: {
      ...DEFAULT_DISPATCH_OPTIONS,
      maxAttempts: ctx.config.delivery.maxAttempts,
      ...overrides,
    },
  };
  return {
    [TASKS.dispatchCampaign]: async (payload) => {
      const { campaignId, lane } = DispatchPayload.parse(payload);
      await runDispatchSlice(deps, campaignId, lane);
    },
    [TASKS.recoverDispatch]: async () => {
      const revived = await recoverDispatch(ctx);
      if (revived > 0) {
        ctx.log.info({ component: 'delivery', count: revived }, 'stalled campaigns resumed');
      }
    },
    [TASKS.finalizeCampaign]: async (payload) => {
      await runFinalize(ctx, CampaignPayload.parse(payload).campaignId);
    },
  };
}

/**
 * Gives the rows of dead instances back (due now; in a campaign that stopped meanwhile, as unsent
 * with its settlement asked for), and each campaign that had some, or that
 * stalled, its dispatch jobs again; returns how many campaigns. Jobs for a campaign another
 * instance is still sending only add a slice: claims are exclusive.
 */
export async function recoverDispatch(ctx: Pick<AppContext, 'db'>): Promise<number> {
  const orphaned = await releaseOrphans(ctx.db);
  // A campaign that stopped while a dead instance held some of its rows is settled now.
  for (const id of await releaseStoppedOrphans(ctx.db)) await requestFinalize(ctx.db, id);
  const stalled = [...new Set([...orphaned, ...(await stalledCampaigns(ctx.db, STALL_MS))])];
  for (const id of stalled) {
    await ctx.db.transaction().execute(async (tx) => {
      await touchHeartbeat(tx, id);
      await addLaneJobs(tx, id);
    });
  }
  return stalled.length;
}

/**
 * A runner starting (a crash may have left campaigns mid-send): one watchdog run now, and,
 * when a campaign's heartbeat is still too young to count as stalled (the dead instance
 * claimed just before it died), one more as soon as that heartbeat has gone stale, rather
 * than at the cron's next minute.
 */
export async function recoverAtStart(ctx: Pick<AppContext, 'db'>): Promise<void> {
  await addJob(ctx.db, TASKS.recoverDispatch, {}, { jobKey: 'delivery-recover:start' });
  const newest = await freshestHeartbeat(ctx.db, STALL_MS);
  if (newest) {
    const runAt = new Date(newest.getTime() + STALL_MS + RECHECK_MARGIN_MS);
    await addJob(ctx.db, TASKS.recoverDispatch, {}, { jobKey: 'delivery-recover:stale', runAt });
  }
}

/** How long after a heartbeat goes stale the restart's second watchdog run comes. */
const RECHECK_MARGIN_MS = 1_000;

export const deliveryCrontab: ParsedCronItem[] = parseCronItems([
  { task: TASKS.recoverDispatch, match: '* * * * *' },
]);
