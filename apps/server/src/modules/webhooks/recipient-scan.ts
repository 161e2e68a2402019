import { WEBHOOK_RECIPIENTS_BATCH_MAX } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { addJob, TASKS } from '../../jobs/job-queue.js';
import { emitWebhookEvent } from './webhook-events.js';
import * as repo from './recipient-scan.repo.js';

/**
 * `recipients.updated` (docs/api.md, Webhooks): recipients' status changes, up to
 * WEBHOOK_RECIPIENTS_BATCH_MAX per call. The send path writes nothing for it: a job scans, while
 * any campaign is watched, the campaigns of owners with a subscribed endpoint and reports the
 * rows changed since its last scan (recipient-scan.repo.ts). A campaign's scan walks its primary
 * key once and emits one event per full batch, so a 1M-recipient campaign is about 1,000 calls
 * per status step its recipients take, whatever the send rate.
 *
 * The next scan waits SCAN_COST_FACTOR times as long as this one spent on sending campaigns,
 * within [SCAN_MIN_WAIT_MS, SCAN_MAX_WAIT_MS]: small campaigns hear of a change within a few
 * seconds, and a pass over a large one's rows takes at most about a tenth of a core. The others
 * (a campaign's first report after its endpoint was added, late receipts every few minutes)
 * cost once, so they do not slow the pace.
 */
export const SCAN_MIN_WAIT_MS = 2_000;
export const SCAN_MAX_WAIT_MS = 15_000;
export const SCAN_COST_FACTOR = 10;

/** How long after a scan that took `tookMs` the next one starts. */
export function nextScanWait(tookMs: number): number {
  return Math.min(SCAN_MAX_WAIT_MS, Math.max(SCAN_MIN_WAIT_MS, SCAN_COST_FACTOR * tookMs));
}
const SCAN_JOB_KEY = 'webhook-recipients-scan';

/** Scans every watched campaign once; answers how many events it emitted. */
export async function scanRecipients(ctx: AppContext): Promise<number> {
  const campaigns = await repo.campaignsToScan(ctx.db);
  let events = 0;
  let sendingMs = 0;
  for (const c of campaigns) {
    const started = performance.now();
    events += await scanCampaign(ctx, c.id, c.user_id);
    if (c.status === 'Processing') sendingMs += performance.now() - started;
  }
  if (campaigns.length > 0) {
    // While something is watched the scan comes back soon; the minute's cron restarts it.
    await addJob(
      ctx.db,
      TASKS.scanWebhookRecipients,
      {},
      {
        runAt: new Date(Date.now() + nextScanWait(sendingMs)),
        jobKey: SCAN_JOB_KEY,
        maxAttempts: 1,
      },
    );
  }
  return events;
}

async function scanCampaign(ctx: AppContext, campaignId: string, userId: string) {
  return ctx.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (tx) => {
      const start = await repo.beginScan(tx, campaignId);
      if (!start.locked || start.status === null) return 0;
      let after = '';
      let events = 0;
      for (;;) {
        const page = await repo.changedAfter(
          tx,
          campaignId,
          start.snapshot,
          start.xmax,
          after,
          WEBHOOK_RECIPIENTS_BATCH_MAX,
        );
        if (page.length === 0) break;
        await emitWebhookEvent(tx, userId, 'recipients.updated', {
          campaignId,
          recipients: page.map((r) => ({
            phone: r.phone,
            status: r.state,
            at: r.state_at.toISOString(),
            errorCode: r.state === 'failed' ? r.error_code : null,
          })),
        });
        events++;
        after = page.at(-1)!.phone;
        if (page.length < WEBHOOK_RECIPIENTS_BATCH_MAX) break;
      }
      await repo.saveCursor(tx, campaignId, start.status, events > 0);
      return events;
    });
}
