import { z } from 'zod';
import { parseCronItems, type ParsedCronItem, type TaskList } from 'graphile-worker';
import type { AppContext } from '../context.js';
import { pruneIdempotencyKeys } from '../plugins/idempotency.js';
import { deleteSpentResets } from '../modules/auth/auth.service.js';
import { TASKS } from './job-queue.js';
import { sweepUploads } from './upload-sweeps.js';
import {
  DEFAULT_BACKUP_CRON,
  runScheduledBackup,
  SCHEDULED_BACKUP_TASK,
} from '../modules/backup/scheduled-backup.js';
import type { Config } from '../config/config.js';
import { buildDownload } from '../modules/backup/backup-downloads.js';
import { runSave } from '../modules/backup/manual-backup.js';
import { deliveryCrontab, deliveryTasks } from '../modules/delivery/index.js';
import { webhookCrontab, webhookTasks } from '../modules/webhooks/webhook-tasks.js';
import { pruneAuditLog } from '../modules/audit/index.js';
import { scheduleCrontab, scheduleTasks } from '../modules/campaigns/campaign-schedule.js';

const SendMailPayload = z.object({ id: z.uuid() });
/** A backup download's or a save to the server's id. */
const BackupDownloadPayload = z.object({ id: z.string().min(1) });

/**
 * The task of each job name. A task that throws is retried by graphile-worker with exponential
 * backoff; what a periodic task removed is logged, so the cleanups can be followed in the log.
 */
export function taskList(ctx: AppContext): TaskList {
  const report = (what: string, count: number) => {
    if (count > 0) ctx.log.info({ component: 'jobs', count }, what);
  };
  return {
    [TASKS.sendMail]: async (payload) => {
      await ctx.outbox.send(SendMailPayload.parse(payload).id);
    },
    [TASKS.requeueMail]: async () => {
      report('unsent mail given a new job', await ctx.outbox.requeueStalled());
    },
    [TASKS.pruneSentMail]: async () => {
      report('sent mail records pruned', await ctx.outbox.pruneSent());
    },
    [TASKS.pruneIdempotencyKeys]: async () => {
      report('idempotency keys pruned', await pruneIdempotencyKeys(ctx.db));
    },
    [TASKS.deleteSpentOtps]: async () => {
      report('spent or expired one-time codes deleted', await deleteSpentResets(ctx.db));
    },
    [TASKS.pruneRateLimits]: async () => {
      report('stale rate-limit counters deleted', await ctx.rateLimiter.prune());
    },
    [TASKS.sweepUploads]: async () => {
      const swept = await sweepUploads(ctx.db, ctx.files);
      const removed = Object.values(swept).reduce((sum, n) => sum + n, 0);
      report('orphaned upload files removed', removed);
    },
    [TASKS.pruneAuditLog]: async () => {
      report('audit entries past their retention removed', await pruneAuditLog(ctx.db));
    },
    [SCHEDULED_BACKUP_TASK]: async () => {
      const { name, pruned } = await runScheduledBackup(ctx);
      ctx.log.info({ component: 'jobs', name, pruned }, 'scheduled backup saved');
    },
    [TASKS.buildBackupDownload]: async (payload) => {
      await buildDownload(ctx, BackupDownloadPayload.parse(payload).id);
    },
    [TASKS.saveBackupToServer]: async (payload) => {
      await runSave(ctx, BackupDownloadPayload.parse(payload).id);
    },
    ...deliveryTasks(ctx),
    ...webhookTasks(ctx),
    ...scheduleTasks(ctx),
  };
}

/**
 * When the periodic tasks run. graphile-worker records each run in `known_crontabs`, so with
 * several instances each one still runs once; a run missed while every instance was down is
 * skipped (no backfill): each task catches up on its next run.
 */
export const crontab: ParsedCronItem[] = parseCronItems([
  { task: TASKS.pruneRateLimits, match: '*/15 * * * *' },
  { task: TASKS.pruneIdempotencyKeys, match: '5 * * * *' },
  { task: TASKS.deleteSpentOtps, match: '10 * * * *' },
  { task: TASKS.sweepUploads, match: '20 * * * *' },
  { task: TASKS.requeueMail, match: '35 * * * *' },
  { task: TASKS.pruneSentMail, match: '40 3 * * *' },
  { task: TASKS.pruneAuditLog, match: '50 3 * * *' },
  { task: SCHEDULED_BACKUP_TASK, match: DEFAULT_BACKUP_CRON },
])
  .concat(deliveryCrontab)
  .concat(webhookCrontab)
  .concat(scheduleCrontab);

/** The crontab with the scheduled backup at the configured BACKUP_CRON. */
export function crontabFor(config: Pick<Config, 'backupCron'>): ParsedCronItem[] {
  return [
    ...crontab.filter((c) => c.task !== SCHEDULED_BACKUP_TASK),
    ...parseCronItems([{ task: SCHEDULED_BACKUP_TASK, match: config.backupCron }]),
  ];
}
