import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { badRequest } from '../../../lib/app-error.js';
import type { InboundMessage, StatusEvent } from './provider.js';
import { whatsAppReason } from './whatsapp-errors.js';

/**
 * WhatsApp Cloud API webhooks, as Meta's webhook reference gives them: the GET subscription
 * check, the `X-Hub-Signature-256` of every POST (HMAC-SHA256 of the raw body with the app
 * secret), and the `messages` field's `statuses[]` and `messages[]`.
 */

export const WA_SIGNATURE_HEADER = 'x-hub-signature-256';

/** Whether the raw body was signed with the app secret; compared in constant time. */
export function verifyWhatsAppSignature(
  appSecret: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
): boolean {
  const given = headers[WA_SIGNATURE_HEADER];
  if (typeof given !== 'string' || !given.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const actual = Buffer.from(given.slice('sha256='.length), 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The `X-Hub-Signature-256` value Meta sends for `rawBody` (the fake provider signs with it). */
export function whatsAppSignature(appSecret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/**
 * The GET check Meta makes when the webhook is set up: `hub.challenge` echoed when the mode is
 * `subscribe` and the token is ours, else null.
 */
export function verifyWhatsAppSubscription(
  verifyToken: string,
  query: Record<string, string | undefined>,
): string | null {
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (query['hub.mode'] !== 'subscribe' || token === undefined || challenge === undefined) {
    return null;
  }
  const a = Buffer.from(token);
  const b = Buffer.from(verifyToken);
  return a.length === b.length && timingSafeEqual(a, b) ? challenge : null;
}

const ErrorSchema = z.object({
  code: z.number().int(),
  title: z.string().optional(),
  message: z.string().optional(),
});

const StatusSchema = z.object({
  id: z.string().min(1),
  // Others exist (`deleted`, `warning`, `pending`...): they change nothing here.
  status: z.string(),
  timestamp: z.union([z.string(), z.number()]),
  recipient_id: z.string().optional(),
  biz_opaque_callback_data: z.string().optional(),
  errors: z.array(ErrorSchema).optional(),
});

const InboundSchema = z.object({
  from: z.string(),
  id: z.string(),
  timestamp: z.union([z.string(), z.number()]),
  type: z.string(),
  text: z.object({ body: z.string() }).optional(),
  button: z.object({ text: z.string() }).optional(),
  interactive: z
    .object({
      button_reply: z.object({ title: z.string() }).optional(),
      list_reply: z.object({ title: z.string() }).optional(),
    })
    .optional(),
});

const EnvelopeSchema = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(
    z.object({
      id: z.string(),
      changes: z.array(
        z.object({
          field: z.string(),
          value: z.object({
            messaging_product: z.literal('whatsapp').optional(),
            metadata: z
              .object({ display_phone_number: z.string(), phone_number_id: z.string() })
              .optional(),
            statuses: z.array(StatusSchema).optional(),
            messages: z.array(InboundSchema).optional(),
          }),
        }),
      ),
    }),
  ),
});
type Envelope = z.infer<typeof EnvelopeSchema>;

const STATES = new Set(['sent', 'delivered', 'read', 'failed']);

/** Unix seconds, as Meta writes them (a string of digits). */
const fromUnix = (t: string | number) => new Date(Number(t) * 1000);

function envelope(body: unknown): Envelope {
  const parsed = EnvelopeSchema.safeParse(body);
  if (!parsed.success) throw badRequest();
  return parsed.data;
}

function values(body: unknown) {
  return envelope(body).entry.flatMap((e) =>
    e.changes.filter((c) => c.field === 'messages').map((c) => c.value),
  );
}

/**
 * The status events of one callback. The engine's reference comes back in
 * `biz_opaque_callback_data`; a failure carries its first error, with the table's title as the
 * reason (whatsapp-errors.ts).
 */
export function parseWhatsAppStatuses(body: unknown): StatusEvent[] {
  const events: StatusEvent[] = [];
  for (const value of values(body)) {
    for (const s of value.statuses ?? []) {
      if (!STATES.has(s.status)) continue;
      const error = s.status === 'failed' ? s.errors?.[0] : undefined;
      events.push({
        reference: s.biz_opaque_callback_data ?? null,
        providerMessageId: s.id,
        state: s.status as StatusEvent['state'],
        at: fromUnix(s.timestamp),
        ...(s.status === 'failed'
          ? {
              error: error
                ? { code: String(error.code), text: whatsAppReason(error.code, error.title) }
                : { code: 'unknown', text: 'Failed without an error' },
            }
          : {}),
      });
    }
  }
  return events;
}

/** The text people sent to the number (`messages[]`), for the opt-out keywords. */
export function parseWhatsAppInbound(body: unknown): InboundMessage[] {
  const out: InboundMessage[] = [];
  for (const value of values(body)) {
    for (const m of value.messages ?? []) {
      const text =
        m.text?.body ??
        m.button?.text ??
        m.interactive?.button_reply?.title ??
        m.interactive?.list_reply?.title;
      if (text === undefined) continue;
      out.push({
        from: m.from.replace(/\D/g, ''),
        to: value.metadata?.phone_number_id ?? null,
        text,
        at: fromUnix(m.timestamp),
      });
    }
  }
  return out;
}
