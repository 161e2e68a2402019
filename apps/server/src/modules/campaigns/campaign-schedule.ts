import { z } from 'zod';
import { parseCronItems, type ParsedCronItem, type TaskList } from 'graphile-worker';
import { campaignLink, scheduleMessages } from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { addJob, TASKS } from '../../jobs/job-queue.js';
import { notify } from '../notifications/notifications.service.js';
import { lockCampaign } from './campaign-actions.repo.js';
import * as repo from './campaign-schedule.repo.js';

/**
 * Scheduled sends (docs/delivery.md, Scheduled sends). An Admin's Approved of a campaign whose
 * `send_at` is still ahead leaves it Approved and queues one job with graphile-worker, due at
 * that time and keyed by the campaign (approving again replaces the waiting job, never adds a
 * second). The job lives in the database, so it outlasts any restart; at its time whichever
 * instance claims it locks the campaign's row and starts it only if it is still Approved, due
 * and untaken, through the same port as an approval (ctx.dispatch.start). A sweep every
 * minute does the same for any due campaign whose job were lost.
 */

type Ctx = Pick<AppContext, 'db' | 'dispatch' | 'config' | 'log'>;

/** One waiting start per campaign. */
export const scheduledStartKey = (campaignId: string) => `campaign-start:${campaignId}`;
/** The sweep starts at most this many campaigns a run; the next minute takes the rest. */
const SWEEP_BATCH = 100;

const StartPayload = z.object({ campaignId: z.uuid() });

/**
 * An approval in `tx` (moveCampaign): when the campaign's time is still ahead, queues its
 * start for that time (committing with the approval) and answers true: the caller must not
 * start it now. False: no time, or its time came; the caller starts it at once.
 */
export async function holdUntilSendAt(tx: Tx, campaignId: string): Promise<boolean> {
  const sendAt = await repo.sendAtAhead(tx, campaignId);
  if (sendAt === null) return false;
  await addJob(
    tx,
    TASKS.startScheduledCampaign,
    { campaignId },
    { runAt: sendAt, jobKey: scheduledStartKey(campaignId) },
  );
  return true;
}

/**
 * Starts a scheduled campaign whose time came, once, however many jobs or instances ask: under
 * its row lock it must still be Approved, due and untaken by the engine (a cancelled, rejected
 * or already started campaign is left alone). True when the engine took it.
 */
export async function startIfDue(ctx: Ctx, campaignId: string): Promise<boolean> {
  if (!ctx.config.delivery.dispatch) return false;
  return ctx.db.transaction().execute(async (tx) => {
    const campaign = await lockCampaign(tx, campaignId);
    if (!campaign || !(await repo.isDueApproved(tx, campaignId))) return false;
    if (!(await ctx.dispatch.start(tx, campaignId))) return false;
    await notify(tx, {
      userId: campaign.user_id,
      eventType: 'campaign_status',
      message: scheduleMessages.notifyCampaignScheduledSending(campaign),
      link: campaignLink(campaignId),
    });
    return true;
  });
}

/** The sweep: every Approved campaign whose time came is started; returns how many. */
export async function startDueCampaigns(ctx: Ctx): Promise<number> {
  let started = 0;
  for (const id of await repo.dueApprovedCampaigns(ctx.db, SWEEP_BATCH)) {
    if (await startIfDue(ctx, id)) started++;
  }
  return started;
}

export function scheduleTasks(ctx: Ctx): TaskList {
  return {
    [TASKS.startScheduledCampaign]: async (payload) => {
      const { campaignId } = StartPayload.parse(payload);
      if (await startIfDue(ctx, campaignId)) {
        ctx.log.info({ component: 'campaigns', campaignId }, 'scheduled campaign started');
      }
    },
    [TASKS.sweepScheduledCampaigns]: async () => {
      const count = await startDueCampaigns(ctx);
      if (count > 0) {
        ctx.log.info({ component: 'campaigns', count }, 'due scheduled campaigns started by sweep');
      }
    },
  };
}

export const scheduleCrontab: ParsedCronItem[] = parseCronItems([
  { task: TASKS.sweepScheduledCampaigns, match: '* * * * *' },
]);
