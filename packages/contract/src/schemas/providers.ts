import { z } from 'zod';
import { CREDIT_TYPES, type CreditType } from '../credit-types.js';
import { server as msg } from '../server-messages.js';
import { text } from './common.js';

/**
 * Providers, senders and routing (docs/delivery.md, Providers in the database): an Admin
 * connects a WhatsApp Cloud API number or an SMS gateway (a provider with its settings and
 * credentials), adds its senders (a phone number id or a sender id, with rate and daily limit),
 * and routes each credit type to a sender. The built-in simulator is one provider among them.
 */

export const PROVIDER_KINDS = ['simulator', 'whatsapp_cloud', 'jasmin', 'twilio'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export const PROVIDER_KIND_LABELS: Record<ProviderKind, string> = {
  simulator: 'Simulator',
  whatsapp_cloud: 'WhatsApp Cloud API',
  jasmin: 'HTTP SMS gateway (Jasmin)',
  twilio: 'HTTP SMS gateway (Twilio)',
};

/** Kinds that carry plain text only: only SMS credit types may route to their senders. */
export const SMS_PROVIDER_KINDS: readonly ProviderKind[] = ['jasmin', 'twilio'];
/** The credit types an SMS gateway can carry (no picture, no button). */
export const SMS_CREDIT_TYPES: readonly CreditType[] = [
  'Normal Message - domestic',
  'Normal Message - international',
];

/** Whether a sender of this kind may carry campaigns of this credit type. */
export function kindCarries(kind: ProviderKind, creditType: CreditType): boolean {
  return !SMS_PROVIDER_KINDS.includes(kind) || SMS_CREDIT_TYPES.includes(creditType);
}

export const PROVIDER_LIMITS = {
  nameMax: 100,
  settingMax: 500,
  secretMax: 2000,
  addressMax: 100,
  testMessageMax: 1024,
  /** How much of a provider's answer the test shows. */
  rawAnswerMax: 4000,
} as const;

/** One field of a provider's form: a setting (shown again) or a secret (never shown again). */
export interface ProviderField {
  name: string;
  label: string;
  secret: boolean;
  required: boolean;
  /** An http(s) URL. */
  url?: boolean;
  /** Filled in when the form opens for a new provider. */
  default?: string;
  hint?: string;
}

const countryCode: ProviderField = {
  name: 'domesticCountryCode',
  label: 'Domestic country code',
  secret: false,
  required: false,
  hint: 'Digits put in front of a domestic campaign’s national numbers, e.g. 91.',
};

/** What each kind's form asks for, in order. */
export const PROVIDER_FIELDS: Record<ProviderKind, readonly ProviderField[]> = {
  simulator: [
    { name: 'baseUrl', label: 'Simulator URL', secret: false, required: true, url: true },
    {
      name: 'webhookSecret',
      label: 'Shared secret',
      secret: true,
      required: true,
      hint: 'The simulator’s DELIVERY_WEBHOOK_SECRET.',
    },
  ],
  whatsapp_cloud: [
    {
      name: 'baseUrl',
      label: 'Graph API URL',
      secret: false,
      required: true,
      url: true,
      default: 'https://graph.facebook.com',
    },
    { name: 'apiVersion', label: 'API version', secret: false, required: true, default: 'v21.0' },
    countryCode,
    { name: 'accessToken', label: 'Access token', secret: true, required: true },
    {
      name: 'appSecret',
      label: 'App secret',
      secret: true,
      required: true,
      hint: 'Signs the status webhooks (X-Hub-Signature-256).',
    },
    {
      name: 'verifyToken',
      label: 'Verify token',
      secret: true,
      required: true,
      hint: 'The token you enter with the callback URL in Meta’s console.',
    },
  ],
  jasmin: [
    { name: 'baseUrl', label: 'Gateway URL', secret: false, required: true, url: true },
    countryCode,
    { name: 'username', label: 'Username', secret: true, required: true },
    { name: 'password', label: 'Password', secret: true, required: true },
  ],
  twilio: [
    {
      name: 'baseUrl',
      label: 'API URL',
      secret: false,
      required: true,
      url: true,
      default: 'https://api.twilio.com',
    },
    countryCode,
    { name: 'username', label: 'Account SID', secret: true, required: true },
    { name: 'password', label: 'Auth token', secret: true, required: true },
  ],
};

/** What a sender's address is for each kind. */
export const SENDER_ADDRESS_LABELS: Record<ProviderKind, string> = {
  simulator: 'Sender name',
  whatsapp_cloud: 'Phone number ID',
  jasmin: 'Sender ID or number',
  twilio: 'From number',
};

/**
 * Whether a sender of this kind needs its address: every provider but the simulator names the
 * number or sender id it sends from (the simulator's default sender has none).
 */
export function senderAddressRequired(kind: ProviderKind): boolean {
  return kind !== 'simulator';
}

/** A provider as the screens get it: its secrets only as their last 4 characters. */
export const ProviderSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(PROVIDER_KINDS),
  /** The simulator set up by the server's own settings: not editable here. */
  builtin: z.boolean(),
  enabled: z.boolean(),
  settings: z.record(z.string(), z.string()),
  /** The last 4 characters of each secret that is set. */
  secrets: z.record(z.string(), z.string()),
  /** Where the provider must send its status and inbound callbacks. */
  callbackUrl: z.string(),
  senderCount: z.number().int(),
  createdAt: z.string(),
});
export type Provider = z.infer<typeof ProviderSchema>;

const nameInvalid = msg.providerNameInvalid(PROVIDER_LIMITS.nameMax);
const fields = z.record(z.string().max(50), text().trim().max(PROVIDER_LIMITS.secretMax));

/**
 * A provider's fields checked against its kind's form: only known fields, required ones
 * present (secrets may be left empty on an edit to keep them), URLs valid. The message of the
 * first problem, or null.
 */
export function providerFieldsProblem(
  kind: ProviderKind,
  settings: Record<string, string>,
  secrets: Record<string, string>,
  opts: { creating: boolean },
): string | null {
  const known = PROVIDER_FIELDS[kind];
  for (const name of [...Object.keys(settings), ...Object.keys(secrets)]) {
    if (!known.some((f) => f.name === name)) return msg.providerFieldUnknown(name);
  }
  for (const f of known) {
    const value = (f.secret ? secrets[f.name] : settings[f.name]) ?? '';
    if (value === '') {
      if (f.required && (!f.secret || opts.creating)) return msg.providerFieldRequired(f.label);
      continue;
    }
    if (!f.secret && value.length > PROVIDER_LIMITS.settingMax) {
      return msg.providerFieldTooLong(f.label, PROVIDER_LIMITS.settingMax);
    }
    if (f.url && !/^https?:\/\/[^\s/]+/i.test(value)) return msg.providerUrlInvalid(f.label);
    if (f.name === 'domesticCountryCode' && !/^\d{1,4}$/.test(value)) {
      return msg.providerCountryCodeInvalid;
    }
  }
  return null;
}

const providerBody = {
  name: text().trim().min(1, nameInvalid).max(PROVIDER_LIMITS.nameMax, nameInvalid),
  enabled: z.boolean().default(true),
  settings: fields.default({}),
  /** On an edit, an empty or absent secret keeps the saved one. */
  secrets: fields.default({}),
};

export const CreateProviderBodySchema = z
  .object({ kind: z.enum(PROVIDER_KINDS, msg.providerKindInvalid), ...providerBody })
  .superRefine((b, ctx) => {
    const problem = providerFieldsProblem(b.kind, b.settings, b.secrets, { creating: true });
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
export type CreateProviderBody = z.input<typeof CreateProviderBodySchema>;

/** An edit keeps the kind; the server checks the fields against the saved provider's kind. */
export const UpdateProviderBodySchema = z.object(providerBody);
export type UpdateProviderBody = z.input<typeof UpdateProviderBodySchema>;

const testMessageInvalid = msg.providerTestMessageInvalid(PROVIDER_LIMITS.testMessageMax);
/** POST /api/delivery/providers/:id/test: one message through one of its senders. */
export const ProviderTestBodySchema = z.object({
  senderId: z.uuid(msg.senderNotFound),
  to: text()
    .trim()
    .regex(/^\d{8,15}$/, msg.providerTestNumberInvalid),
  message: text()
    .trim()
    .min(1, testMessageInvalid)
    .max(PROVIDER_LIMITS.testMessageMax, testMessageInvalid),
});
export type ProviderTestBody = z.input<typeof ProviderTestBodySchema>;

/** What the provider answered, as it answered (cut at PROVIDER_LIMITS.rawAnswerMax). */
export const ProviderTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  /** The HTTP status, null when no answer came (refused connection, timeout). */
  status: z.number().int().nullable(),
  body: z.string(),
  providerMessageId: z.string().nullable(),
});
export type ProviderTestResult = z.infer<typeof ProviderTestResultSchema>;

const addressInvalid = msg.senderAddressInvalid(PROVIDER_LIMITS.addressMax);
const senderName = text()
  .trim()
  .min(1, msg.senderNameInvalid(PROVIDER_LIMITS.nameMax))
  .max(PROVIDER_LIMITS.nameMax, msg.senderNameInvalid(PROVIDER_LIMITS.nameMax));
const senderAddress = text().trim().max(PROVIDER_LIMITS.addressMax, addressInvalid);

/** The editable parts of a sender beyond its limits (delivery.ts, UpdateSenderBodySchema). */
export const SenderIdentityFields = { name: senderName, address: senderAddress };

/** Which sender each credit type goes through; null: the default sender. */
export const CreditRouteSchema = z.object({
  creditType: z.enum(CREDIT_TYPES),
  senderId: z.string().nullable(),
});
export type CreditRoute = z.infer<typeof CreditRouteSchema>;

export const UpdateRoutesBodySchema = z.object({
  routes: z
    .array(
      z.object({
        creditType: z.enum(CREDIT_TYPES, msg.creditTypeInvalid),
        senderId: z.uuid(msg.senderNotFound).nullable(),
      }),
    )
    .max(CREDIT_TYPES.length),
});
export type UpdateRoutesBody = z.input<typeof UpdateRoutesBodySchema>;
