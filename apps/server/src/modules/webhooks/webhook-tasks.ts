import { parseCronItems, type ParsedCronItem, type TaskList } from 'graphile-worker';
import type { AppContext } from '../../context.js';
import { TASKS } from '../../jobs/job-queue.js';
import { deliverWebhook, DeliverPayloadSchema } from './webhook-delivery.js';
import { scanRecipients } from './recipient-scan.js';
import { pruneEvents } from './webhooks.repo.js';

/** How long events and their delivery log are kept. */
export const WEBHOOK_EVENTS_KEEP_DAYS = 30;

/** The webhooks' jobs (docs/api.md, Webhooks). */
export function webhookTasks(ctx: AppContext): TaskList {
  const report = (what: string, count: number) => {
    if (count > 0) ctx.log.info({ component: 'webhooks', count }, what);
  };
  return {
    [TASKS.deliverWebhook]: async (payload) => {
      await deliverWebhook(ctx, DeliverPayloadSchema.parse(payload));
    },
    [TASKS.scanWebhookRecipients]: async () => {
      report('recipients.updated events emitted', await scanRecipients(ctx));
    },
    [TASKS.pruneWebhookEvents]: async () => {
      report('old webhook events pruned', await pruneEvents(ctx.db, WEBHOOK_EVENTS_KEEP_DAYS));
    },
  };
}

/** The recipients scan starts every minute (it then repeats itself while campaigns are watched). */
export const webhookCrontab: ParsedCronItem[] = parseCronItems([
  { task: TASKS.scanWebhookRecipients, match: '* * * * *' },
  { task: TASKS.pruneWebhookEvents, match: '50 3 * * *' },
]);
