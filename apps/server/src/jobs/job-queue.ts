import type pg from 'pg';
import { runMigrations } from 'graphile-worker';
import { workerLogger, type Log } from './worker-logger.js';

// The statement lives in the queue's repo file; every caller keeps importing it from here.
export { addJob } from './job-queue.repo.js';

/** Every task the runner knows; a job names one of these. */
export const TASKS = {
  sendMail: 'send-mail',
  requeueMail: 'requeue-mail',
  pruneSentMail: 'prune-sent-mail',
  pruneIdempotencyKeys: 'prune-idempotency-keys',
  deleteSpentOtps: 'delete-spent-otps',
  pruneRateLimits: 'prune-rate-limits',
  sweepUploads: 'sweep-uploads',
  /** Builds a "generate download" backup (modules/backup/backup-downloads.ts). */
  buildBackupDownload: 'backup-download',
  /** Saves a backup to the server (modules/backup/manual-backup.ts). */
  saveBackupToServer: 'backup-save',
  /** The delivery engine (modules/delivery): one slice of sending a campaign. */
  dispatchCampaign: 'delivery-dispatch',
  /** Settles a campaign whose sending ended: Completed, refund, report. */
  finalizeCampaign: 'delivery-finalize',
  /** Watchdog: campaigns left running by a stopped or killed instance get their jobs again. */
  recoverDispatch: 'delivery-recover',
  /** A scheduled campaign's start at its "Send at" (modules/campaigns/campaign-schedule.ts). */
  startScheduledCampaign: 'campaign-scheduled-start',
  /** Safety net: any Approved campaign whose "Send at" passed is started. */
  sweepScheduledCampaigns: 'campaign-scheduled-sweep',
  /** One attempt of one event to a customer's webhook endpoint (its name is in webhook_emit). */
  deliverWebhook: 'webhook-deliver',
  /** Reports recipients' status changes to subscribed endpoints, in batches. */
  scanWebhookRecipients: 'webhook-recipients-scan',
  /** Old webhook events and their delivery log go. */
  pruneWebhookEvents: 'webhook-prune',
  /** Audit entries older than the Admin's retention go (modules/audit/audit-retention.ts). */
  pruneAuditLog: 'audit-prune',
} as const;
export type TaskName = (typeof TASKS)[keyof typeof TASKS];

export interface JobSpec {
  /** Not before this time (default: now). */
  runAt?: Date;
  /** One pending job per key: adding again replaces the waiting one. */
  jobKey?: string;
  /** graphile-worker's default is 25 attempts, with exponential backoff between them. */
  maxAttempts?: number;
}

/** Installs or upgrades graphile-worker's own schema (`graphile_worker`). */
export async function migrateJobQueue(pool: pg.Pool, log: Log): Promise<void> {
  await runMigrations({ pgPool: pool, logger: workerLogger(log) });
}
