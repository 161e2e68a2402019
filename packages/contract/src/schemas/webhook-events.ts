import { z } from 'zod';
import { CAMPAIGN_STATUSES, TICKET_STATUSES } from '../statuses.js';
import { CREDIT_TYPES } from '../credit-types.js';
import { WEBHOOK_RECIPIENTS_BATCH_MAX } from '../limits.js';

/**
 * The events Herald sends to its customers' webhook endpoints (docs/api.md, Webhooks), each
 * body `{ type, timestamp, data }` as Standard Webhooks recommends. `webhook.test` is sent by
 * "Send test event" only; an endpoint cannot subscribe to it.
 */
export const WEBHOOK_EVENT_TYPES = [
  'campaign.status_changed',
  'recipients.updated',
  'credits.low_balance',
  'ticket.updated',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export type WebhookAnyEventType = WebhookEventType | typeof WEBHOOK_TEST_EVENT;

/** Recipient states a `recipients.updated` call reports (the engine's in-between ones are not). */
export const WEBHOOK_RECIPIENT_STATES = [
  'sent',
  'delivered',
  'read',
  'failed',
  'opted_out',
] as const;

export const CampaignStatusChangedDataSchema = z.object({
  campaignId: z.string(),
  name: z.string(),
  previousStatus: z.enum(CAMPAIGN_STATUSES),
  status: z.enum(CAMPAIGN_STATUSES),
});

export const RecipientsUpdatedDataSchema = z.object({
  campaignId: z.string(),
  recipients: z
    .array(
      z.object({
        /** E.164 digits, as the campaign holds them. */
        phone: z.string(),
        status: z.enum(WEBHOOK_RECIPIENT_STATES),
        /** When the recipient reached this status. */
        at: z.string(),
        /** The provider's error code of a failed recipient, else null. */
        errorCode: z.string().nullable(),
      }),
    )
    .min(1)
    .max(WEBHOOK_RECIPIENTS_BATCH_MAX),
});

export const CreditsLowBalanceDataSchema = z.object({
  creditType: z.enum(CREDIT_TYPES),
  balance: z.number().int(),
  threshold: z.number().int(),
});

export const TICKET_CHANGES = ['status', 'reply', 'assigned', 'escalated'] as const;
export const TicketUpdatedDataSchema = z.object({
  ticketId: z.string(),
  number: z.number().int(),
  subject: z.string(),
  status: z.enum(TICKET_STATUSES),
  change: z.enum(TICKET_CHANGES),
});

export const WebhookTestDataSchema = z.object({ endpointId: z.string(), message: z.string() });

/** The `data` of each event type. */
export const WEBHOOK_EVENT_DATA = {
  'campaign.status_changed': CampaignStatusChangedDataSchema,
  'recipients.updated': RecipientsUpdatedDataSchema,
  'credits.low_balance': CreditsLowBalanceDataSchema,
  'ticket.updated': TicketUpdatedDataSchema,
  'webhook.test': WebhookTestDataSchema,
} as const satisfies Record<WebhookAnyEventType, z.ZodType>;
export type WebhookEventData<T extends WebhookAnyEventType> = z.infer<
  (typeof WEBHOOK_EVENT_DATA)[T]
>;

/** The whole body of one call, as the endpoint receives it. */
export const WebhookPayloadSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('campaign.status_changed'),
    timestamp: z.string(),
    data: CampaignStatusChangedDataSchema,
  }),
  z.object({
    type: z.literal('recipients.updated'),
    timestamp: z.string(),
    data: RecipientsUpdatedDataSchema,
  }),
  z.object({
    type: z.literal('credits.low_balance'),
    timestamp: z.string(),
    data: CreditsLowBalanceDataSchema,
  }),
  z.object({
    type: z.literal('ticket.updated'),
    timestamp: z.string(),
    data: TicketUpdatedDataSchema,
  }),
  z.object({ type: z.literal('webhook.test'), timestamp: z.string(), data: WebhookTestDataSchema }),
]);
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;
