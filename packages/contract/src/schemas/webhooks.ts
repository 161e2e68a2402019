import { z } from 'zod';
import { BigintCursorSchema, text } from './common.js';
import { server as msg } from '../server-messages.js';
import {
  LOW_BALANCE_THRESHOLD_MAX,
  WEBHOOK_DELIVERIES_PAGE_DEFAULT,
  WEBHOOK_DELIVERIES_PAGE_MAX,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_URL_MAX,
} from '../limits.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-events.js';

/**
 * Webhook endpoints (docs/api.md, Webhooks): each user's own URLs that Herald calls, signed per
 * Standard Webhooks, when a subscribed event happens. The signing secret (`whsec_…`) is answered
 * once, when the endpoint is made or its secret rotated.
 */

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Why an endpoint is off: its owner turned it off, it answered 410, or it failed for 3 days. */
export const WEBHOOK_DISABLED_REASONS = ['manual', 'gone', 'failing'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/**
 * What is wrong with a URL as an endpoint's, before any lookup: not a URL, not http(s), plain
 * http where https is required, or credentials in it. The server also resolves the host and
 * refuses private addresses (docs/api.md, Webhooks).
 */
export function webhookUrlProblem(url: string, httpsOnly: boolean): string | undefined {
  if (!HttpUrlSchema.safeParse(url).success) return msg.webhookUrlInvalid;
  if (httpsOnly && !/^https:/i.test(url)) return msg.webhookUrlNotHttps;
  if (/^https?:\/\/[^/?#]*@/i.test(url)) return msg.webhookUrlHasCredentials;
  return undefined;
}
const HttpUrlSchema = z.url({ protocol: /^https?$/ });

/** An endpoint's URL; `httpsOnly` unless the server allows private addresses (its list says). */
export function webhookUrlSchema(httpsOnly: boolean) {
  return text({ error: msg.webhookUrlRequired })
    .trim()
    .min(1, msg.webhookUrlRequired)
    .max(WEBHOOK_URL_MAX, msg.webhookUrlTooLong(WEBHOOK_URL_MAX))
    .superRefine((v, ctx) => {
      const problem = webhookUrlProblem(v, httpsOnly);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}

export const WebhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: msg.webhookEventInvalid }), {
    error: msg.webhookEventsRequired,
  })
  .min(1, msg.webhookEventsRequired)
  .max(WEBHOOK_EVENT_TYPES.length, msg.webhookEventInvalid)
  .transform((events) => [...new Set(events)]);

const DescriptionSchema = text({ error: msg.webhookDescriptionTooLong(WEBHOOK_DESCRIPTION_MAX) })
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX, msg.webhookDescriptionTooLong(WEBHOOK_DESCRIPTION_MAX));

/** POST /api/webhooks. */
export function createWebhookBodySchema(httpsOnly: boolean) {
  return z.object({
    url: webhookUrlSchema(httpsOnly),
    events: WebhookEventsSchema,
    description: DescriptionSchema.default(''),
  });
}
export type CreateWebhookBody = z.input<ReturnType<typeof createWebhookBodySchema>>;
export type CreateWebhookInput = z.output<ReturnType<typeof createWebhookBodySchema>>;

/** PATCH /api/webhooks/{id}: any of the fields; `enabled: true` also clears a failure streak. */
export function updateWebhookBodySchema(httpsOnly: boolean) {
  return z.object({
    url: webhookUrlSchema(httpsOnly).optional(),
    events: WebhookEventsSchema.optional(),
    description: DescriptionSchema.optional(),
    enabled: z.boolean({ error: msg.invalidInput }).optional(),
  });
}
export type UpdateWebhookBody = z.input<ReturnType<typeof updateWebhookBodySchema>>;
export type UpdateWebhookInput = z.output<ReturnType<typeof updateWebhookBodySchema>>;

export const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  disabledReason: z.enum(WEBHOOK_DISABLED_REASONS).nullable(),
  /** Since when its deliveries fail without a success between; null when the last one worked. */
  failingSince: z.string().nullable(),
  createdAt: z.string(),
  /** Its latest delivery attempt, if any. */
  lastAttempt: z
    .object({ at: z.string(), statusCode: z.number().int().nullable(), ok: z.boolean() })
    .nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** GET /api/webhooks: the caller's endpoints, newest first, and the rules its form follows. */
export const WebhookListSchema = z.object({
  endpoints: z.array(WebhookEndpointSchema),
  /** Whether endpoint URLs must be https (the server's WEBHOOK_ALLOW_PRIVATE is off). */
  httpsOnly: z.boolean(),
  /** The caller's low-balance threshold in credits; null: no `credits.low_balance` events. */
  lowBalanceThreshold: z.number().int().nullable(),
});
export type WebhookList = z.infer<typeof WebhookListSchema>;

export const CreateWebhookReplySchema = z.object({
  message: z.string(),
  endpoint: WebhookEndpointSchema,
  /** `whsec_…`: answered here once and never again. */
  secret: z.string(),
});
export type CreateWebhookReply = z.infer<typeof CreateWebhookReplySchema>;

export const WebhookEndpointReplySchema = z.object({
  message: z.string(),
  endpoint: WebhookEndpointSchema,
});
export type WebhookEndpointReply = z.infer<typeof WebhookEndpointReplySchema>;

export const RotateWebhookSecretReplySchema = z.object({ message: z.string(), secret: z.string() });
export type RotateWebhookSecretReply = z.infer<typeof RotateWebhookSecretReplySchema>;

const deliveriesLimit = msg.pageLimit(WEBHOOK_DELIVERIES_PAGE_MAX);

/** GET /api/webhooks/{id}/deliveries: newest first, after `cursor` (the last page's nextCursor). */
export const WebhookDeliveriesQuerySchema = z.object({
  cursor: text()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(BigintCursorSchema.optional()),
  limit: z.coerce
    .number({ error: deliveriesLimit })
    .int(deliveriesLimit)
    .min(1, deliveriesLimit)
    .max(WEBHOOK_DELIVERIES_PAGE_MAX, deliveriesLimit)
    .default(WEBHOOK_DELIVERIES_PAGE_DEFAULT),
});
export type WebhookDeliveriesQuery = z.input<typeof WebhookDeliveriesQuerySchema>;
export type WebhookDeliveriesFilters = z.output<typeof WebhookDeliveriesQuerySchema>;

/** One attempt to deliver one event to one endpoint. */
export const WebhookDeliverySchema = z.object({
  id: z.string(),
  /** The `webhook-id` header: the same on every attempt of one event. */
  messageId: z.string(),
  eventType: z.string(),
  attempt: z.number().int(),
  /** The endpoint's HTTP status; null when no answer came (refused, timed out, blocked). */
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  ok: z.boolean(),
  error: z.string().nullable(),
  createdAt: z.string(),
  /** When the next attempt runs; null when this was the last one. */
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryPageSchema = z.object({
  deliveries: z.array(WebhookDeliverySchema),
  nextCursor: z.string().nullable(),
});
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPageSchema>;

/** PUT /api/webhooks/settings: the low-balance threshold (null or empty: none). */
const thresholdMessage = msg.lowBalanceThresholdInvalid(LOW_BALANCE_THRESHOLD_MAX);
export const WebhookSettingsBodySchema = z.object({
  lowBalanceThreshold: z
    .number({ error: thresholdMessage })
    .int(thresholdMessage)
    .min(1, thresholdMessage)
    .max(LOW_BALANCE_THRESHOLD_MAX, thresholdMessage)
    .nullable(),
});
export type WebhookSettingsBody = z.infer<typeof WebhookSettingsBodySchema>;
