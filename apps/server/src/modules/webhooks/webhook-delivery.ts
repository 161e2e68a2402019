import { recordAudit, SYSTEM_ACTOR } from '../audit/index.js';
import { z } from 'zod';
import { server as msg, WEBHOOKS_LINK } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { addJob, TASKS } from '../../jobs/job-queue.js';
import { notify } from '../notifications/notifications.service.js';
import { callWebhook, type WebhookOutcome } from './webhook-sender.js';
import * as repo from './webhooks.repo.js';

/**
 * The delivery job (docs/api.md, Webhooks, Retries): one attempt of one event to one endpoint,
 * logged; a failure schedules the next attempt as a new graphile-worker job at its `run_at`, so
 * retries survive restarts and run once across instances.
 */

export const DeliverPayloadSchema = z.object({
  eventId: z.uuid(),
  endpointId: z.uuid(),
  attempt: z.number().int().min(1),
});
export type DeliverPayload = z.infer<typeof DeliverPayloadSchema>;

/**
 * Standard Webhooks' schedule: the first attempt at once, then after each failure these waits,
 * so an event is tried 8 times over about 28 hours.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];
/** A Retry-After longer than this is read as this. */
const RETRY_AFTER_MAX_MS = 24 * 3_600_000;
/** An endpoint whose deliveries fail for this long, with no success between, is disabled. */
export const FAILING_DISABLE_SECONDS = 3 * 24 * 3600;
/** The job queue's own retries of a delivery job that failed in Herald (not the endpoint). */
const JOB_MAX_ATTEMPTS = 3;

/** The wait before attempt `attempt + 1`, or null when `attempt` was the last. */
export function retryDelayMs(attempt: number, retryAfterMs: number | null): number | null {
  const scheduled = RETRY_DELAYS_MS[attempt - 1];
  if (scheduled === undefined) return null;
  return Math.max(scheduled, Math.min(retryAfterMs ?? 0, RETRY_AFTER_MAX_MS));
}

export const deliveryJobKey = (endpointId: string, eventId: string) =>
  `webhook:${endpointId}:${eventId}`;
export const secretContext = (endpointId: string) => `webhook:${endpointId}`;

export async function deliverWebhook(ctx: AppContext, p: DeliverPayload): Promise<void> {
  const target = await repo.findForDelivery(ctx.db, p.endpointId, p.eventId);
  // Deleted, or turned off since: nothing to send.
  if (!target?.enabled) return;
  const body = JSON.stringify({
    type: target.type,
    timestamp: target.event_at.toISOString(),
    data: target.data,
  });
  const outcome = await callWebhook({
    url: target.url,
    secret: ctx.secretBox.open(target.secret, secretContext(target.id)),
    messageId: `msg_${target.event_id}`,
    body,
    allowPrivate: ctx.config.webhooks.allowPrivate,
  });
  await record(ctx, p, outcome);
}

async function record(ctx: AppContext, p: DeliverPayload, outcome: WebhookOutcome) {
  const gone = outcome.statusCode === 410;
  const delay = outcome.ok || gone ? null : retryDelayMs(p.attempt, outcome.retryAfterMs);
  await ctx.db.transaction().execute(async (tx) => {
    const logAttempt = (next: Date | null) =>
      repo.insertAttempt(tx, {
        endpointId: p.endpointId,
        eventId: p.eventId,
        attempt: p.attempt,
        statusCode: outcome.statusCode,
        durationMs: outcome.durationMs,
        ok: outcome.ok,
        error: outcome.error,
        nextAttemptAt: next,
      });
    if (outcome.ok) {
      await repo.markSucceeded(tx, p.endpointId);
      await logAttempt(null);
      return;
    }
    const streak = await repo.markFailed(tx, p.endpointId);
    if (!streak) return;
    const reason = gone
      ? 'gone'
      : streak.failing_seconds >= FAILING_DISABLE_SECONDS
        ? 'failing'
        : null;
    if (reason) {
      await logAttempt(null);
      if (await repo.disable(tx, p.endpointId, reason)) {
        // Herald turned it off, not its owner: the entry says so and why.
        await recordAudit(tx, {
          actor: SYSTEM_ACTOR,
          action: 'webhook_endpoint.disable',
          target: {
            type: 'webhook_endpoint',
            id: p.endpointId,
            label: streak.url,
            subjectUserId: streak.user_id,
          },
          changes: {
            enabled: { before: true, after: false },
            reason: { before: null, after: reason },
          },
        });
        await notify(tx, {
          userId: streak.user_id,
          eventType: 'webhook',
          message:
            reason === 'gone'
              ? msg.notifyWebhookDisabledGone(streak.url)
              : msg.notifyWebhookDisabledFailing(streak.url),
          link: WEBHOOKS_LINK,
        });
      }
      return;
    }
    const nextAt = delay === null ? null : new Date(Date.now() + delay);
    await logAttempt(nextAt);
    if (nextAt) {
      await addJob(
        tx,
        TASKS.deliverWebhook,
        { ...p, attempt: p.attempt + 1 },
        {
          runAt: nextAt,
          jobKey: deliveryJobKey(p.endpointId, p.eventId),
          maxAttempts: JOB_MAX_ATTEMPTS,
        },
      );
    }
  });
}
