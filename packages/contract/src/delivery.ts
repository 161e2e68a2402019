import { z } from 'zod';
import { server as msg } from './server-messages.js';
import { PROVIDER_KINDS, SenderIdentityFields } from './schemas/providers.js';

/**
 * The delivery engine's vocabulary, shared by the server and the web app. A
 * recipient's state only moves forward along DELIVERY_STATES (failed ends it from any state
 * before delivered), so repeated and out-of-order provider events change nothing twice.
 * `opted_out` is the engine's own: a claimed number on the owner's suppression list is never
 * sent and ends there (docs/delivery.md, Opt-outs); no provider event moves it.
 */
export const DELIVERY_STATES = [
  'queued',
  'sending',
  'sent',
  'delivered',
  'read',
  'failed',
  'opted_out',
] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** States after which nothing more is expected from the provider. */
export const FINAL_DELIVERY_STATES: readonly DeliveryState[] = [
  'delivered',
  'read',
  'failed',
  'opted_out',
];

/** What a provider's status event may report. */
export const STATUS_EVENT_STATES = ['sent', 'delivered', 'read', 'failed'] as const;
export type StatusEventState = (typeof STATUS_EVENT_STATES)[number];

const RANK: Record<DeliveryState, number> = {
  queued: 0,
  sending: 1,
  sent: 2,
  delivered: 3,
  read: 4,
  failed: 5,
  opted_out: 6,
};

/**
 * Whether a recipient in `from` may move to `to` (forward only; failed only before delivered;
 * opted out only before it was sent, and never left).
 */
export function canAdvanceDelivery(from: DeliveryState | null, to: DeliveryState): boolean {
  if (from === null) return true;
  if (from === 'opted_out') return false;
  if (to === 'opted_out') return RANK[from] < RANK.sent;
  if (to === 'failed') return RANK[from] < RANK.delivered;
  if (from === 'failed') return false;
  return RANK[to] > RANK[from];
}

/**
 * The engine's hold on a campaign: running (claiming batches), paused (Admin), waiting (a daily
 * limit reached, until `resumeAt`), cancelled (no more claims; in-flight sends finish), done.
 */
export const DISPATCH_STATES = ['running', 'paused', 'waiting', 'cancelled', 'done'] as const;
export type DispatchState = (typeof DISPATCH_STATES)[number];

/**
 * How the engine reads a provider error (docs/delivery.md, Sending, retries and backoff):
 * `pause_campaign` (the provider says the whole campaign must stop, e.g. WhatsApp's spam rate
 * limit or a paused template) puts the recipient back and pauses the campaign for the Admin;
 * `opted_out` (the person stopped this sender's messages, WhatsApp 131050) fails the recipient
 * as `permanent` does, and the number goes on the campaign owner's suppression list.
 */
export const ERROR_CLASSES = [
  'retryable',
  'throttled',
  'recipient_throttled',
  'permanent',
  'pause_campaign',
  'opted_out',
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

export const DELIVERY_LIMITS = {
  senderRateMax: 100_000,
  senderDailyLimitMax: 100_000_000,
  senderNameMax: 100,
} as const;

/** Shown wherever a campaign delivered by the simulator appears. */
export const SIMULATED_DELIVERY_NOTICE = 'Simulated delivery: no message left this server';

/** A campaign's delivery totals, for its row, its progress bar and its details. */
export const DeliveryProgressSchema = z.object({
  dispatchState: z.enum(DISPATCH_STATES).nullable(),
  simulated: z.boolean(),
  total: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
  refunded: z.number().int(),
  resumeAt: z.string().nullable(),
  /**
   * Waiting (until `resumeAt`) because every recipient left is in its quiet hours
   * (docs/delivery.md, Quiet hours): the screens say QUIET_HOURS_WAIT_LABEL.
   */
  quietHold: z.boolean(),
});
export type DeliveryProgress = z.infer<typeof DeliveryProgressSchema>;

/** The details dialog's breakdown: counts by state and provider errors grouped by code. */
export const DeliveryBreakdownSchema = z.object({
  progress: DeliveryProgressSchema,
  states: z.array(
    z.object({ state: z.enum(DELIVERY_STATES).or(z.literal('unsent')), count: z.number().int() }),
  ),
  errors: z.array(z.object({ code: z.string(), text: z.string(), count: z.number().int() })),
});
export type DeliveryBreakdown = z.infer<typeof DeliveryBreakdownSchema>;

export const SenderSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The provider's name. */
  provider: z.string(),
  providerId: z.string(),
  providerKind: z.enum(PROVIDER_KINDS),
  /** The provider-side address: WhatsApp's phone number id, an SMS sender id or number. */
  address: z.string(),
  ratePerSecond: z.number().int(),
  dailyLimit: z.number().int().nullable(),
  isDefault: z.boolean(),
  sentToday: z.number().int(),
});
export type Sender = z.infer<typeof SenderSchema>;

const rateInvalid = msg.senderRateInvalid(DELIVERY_LIMITS.senderRateMax);
const dailyLimitInvalid = msg.senderDailyLimitInvalid(DELIVERY_LIMITS.senderDailyLimitMax);
export const UpdateSenderBodySchema = z.object({
  /** Absent: unchanged (a limits-only edit sends neither). */
  name: SenderIdentityFields.name.optional(),
  address: SenderIdentityFields.address.optional(),
  ratePerSecond: z.coerce
    .number({ error: rateInvalid })
    .int(rateInvalid)
    .min(1, rateInvalid)
    .max(DELIVERY_LIMITS.senderRateMax, rateInvalid),
  dailyLimit: z.coerce
    .number({ error: dailyLimitInvalid })
    .int(dailyLimitInvalid)
    .min(1, dailyLimitInvalid)
    .max(DELIVERY_LIMITS.senderDailyLimitMax, dailyLimitInvalid)
    .nullable(),
});
export type UpdateSenderBody = z.input<typeof UpdateSenderBodySchema>;

/** POST /api/delivery/senders: a new sender of a provider. */
export const CreateSenderBodySchema = UpdateSenderBodySchema.extend({
  providerId: z.uuid(msg.providerNotFound),
  ...SenderIdentityFields,
});
export type CreateSenderBody = z.input<typeof CreateSenderBodySchema>;
