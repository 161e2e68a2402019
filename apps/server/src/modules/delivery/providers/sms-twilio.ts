import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ErrorClass } from '@herald/contract';
import type { InboundMessage, ProviderError, StatusEvent } from './provider.js';
import { field, type FormFields, type SmsPreset } from './sms-http.js';

/**
 * Twilio's Messages API: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded
 * `To`, `From`, `Body`, `StatusCallback`, with HTTP Basic auth (Account SID, Auth Token). It
 * answers the Message resource (`sid`), or `{ code, message, more_info, status }`. Status
 * callbacks post `MessageSid`, `MessageStatus`, `ErrorCode`; inbound messages `MessageSid`,
 * `From`, `To`, `Body`. Each request carries `X-Twilio-Signature`: the base64 HMAC-SHA1, keyed
 * with the Auth Token, of the full URL followed by every POST parameter sorted by name, name
 * then value (twilio-node's `getExpectedTwilioSignature`).
 */

export const TWILIO_SIGNATURE_HEADER = 'x-twilio-signature';

/** Twilio's signature of a request to `url` with these form parameters. */
export function twilioSignature(authToken: string, url: string, params: FormFields): string {
  let data = url;
  for (const name of [...params.keys()].sort()) {
    // A repeated parameter: its distinct values, sorted (as twilio-node does).
    for (const v of [...new Set(params.get(name))].sort()) data += name + v;
  }
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/**
 * The URL as Twilio may have signed it: as configured, and with the scheme's port written or
 * left out (Twilio's signing is not consistent about it; twilio-node checks both).
 */
function urlVariants(url: string): string[] {
  const u = new URL(url);
  const standard = u.protocol === 'https:' ? '443' : '80';
  const without = new URL(url);
  without.port = '';
  const withPort = `${u.protocol}//${u.username}${u.password ? `:${u.password}` : ''}${u.username || u.password ? '@' : ''}${u.hostname}:${u.port || standard}${u.pathname}${u.search}`;
  return [...new Set([url, without.toString(), withPort])];
}

export function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: FormFields,
  given: string | string[] | undefined,
): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const actual = Buffer.from(given);
  return urlVariants(url).some((u) => {
    const expected = Buffer.from(twilioSignature(authToken, u, params));
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  });
}

const MessageSchema = z.object({ sid: z.string().min(1) });
const ErrorSchema = z.object({
  code: z.number().int().nullable().optional(),
  message: z.string().optional(),
  status: z.number().int().optional(),
});

/** Twilio error codes and what the engine does with them (Twilio's error dictionary). */
export const TWILIO_ERRORS: Readonly<Record<number, { kind: ErrorClass; title: string }>> = {
  20429: { kind: 'throttled', title: 'Too Many Requests' },
  20003: { kind: 'pause_campaign', title: 'Authentication Error' },
  21606: {
    kind: 'pause_campaign',
    title: "The 'From' phone number provided is not a valid message-capable Twilio phone number",
  },
  30002: { kind: 'pause_campaign', title: 'Account suspended' },
  21610: { kind: 'opted_out', title: 'Attempt to send to unsubscribed recipient' },
  21211: { kind: 'permanent', title: "Invalid 'To' Phone Number" },
  21408: {
    kind: 'permanent',
    title: 'Permission to send an SMS has not been enabled for the region',
  },
  21612: { kind: 'permanent', title: "The 'To' phone number is not currently reachable via SMS" },
  21614: { kind: 'permanent', title: "'To' number is not a valid mobile number" },
  21617: {
    kind: 'permanent',
    title: 'The concatenated message body exceeds the 1600 character limit',
  },
  30003: { kind: 'permanent', title: 'Unreachable destination handset' },
  30004: { kind: 'permanent', title: 'Message blocked' },
  30005: { kind: 'permanent', title: 'Unknown destination handset' },
  30006: { kind: 'permanent', title: 'Landline or unreachable carrier' },
  30007: { kind: 'permanent', title: 'Message filtered' },
  30001: { kind: 'retryable', title: 'Queue overflow' },
  30008: { kind: 'retryable', title: 'Unknown error' },
};

const twilioReason = (code: number, given?: string) =>
  TWILIO_ERRORS[code]?.title ?? (given || `Twilio error ${code}`);

export function classifyTwilio(error: ProviderError): ErrorClass {
  const code = Number(error.code);
  const known = TWILIO_ERRORS[code];
  if (known) return known.kind;
  if (code === 429) return 'throttled';
  // Unknown codes and 5xx: tried again, at most DELIVERY_MAX_ATTEMPTS times.
  return 'retryable';
}

const STATES: Record<string, StatusEvent['state']> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  undelivered: 'failed',
  failed: 'failed',
};

export const TWILIO_PRESET: SmsPreset = {
  name: 'twilio',
  signs: true,
  request(m, s, c) {
    const form = new URLSearchParams({
      To: `+${m.to}`,
      From: s.from,
      Body: m.message,
      StatusCallback: s.callbackUrl,
    });
    const auth = Buffer.from(`${c.username}:${c.password}`).toString('base64');
    const url = `${s.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(c.username)}/Messages.json`;
    return { url, form, headers: { authorization: `Basic ${auth}` } };
  },
  answer(status, text) {
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the status alone
    }
    if (status >= 200 && status < 300) {
      const ok = MessageSchema.safeParse(body);
      if (ok.success) return { id: ok.data.sid };
    }
    const err = ErrorSchema.safeParse(body);
    const code = err.success && err.data.code ? err.data.code : status;
    return {
      error: {
        code: String(code),
        text: twilioReason(code, err.success ? err.data.message : undefined),
      },
    };
  },
  classify: classifyTwilio,
  verify(headers, fields, s, c) {
    return verifyTwilioSignature(
      c.password,
      s.callbackUrl,
      fields,
      headers[TWILIO_SIGNATURE_HEADER],
    );
  },
  statuses(f) {
    const sid = field(f, 'MessageSid');
    const status = field(f, 'MessageStatus');
    const state = status ? STATES[status] : undefined;
    if (!sid || !state) return [];
    const code = Number(field(f, 'ErrorCode'));
    return [
      {
        reference: null,
        providerMessageId: sid,
        state,
        at: new Date(),
        ...(state === 'failed'
          ? {
              error:
                Number.isInteger(code) && code > 0
                  ? { code: String(code), text: twilioReason(code) }
                  : { code: status ?? 'failed', text: status ?? 'failed' },
            }
          : {}),
      },
    ];
  },
  inbound(f): InboundMessage[] {
    const from = field(f, 'From');
    const body = field(f, 'Body');
    if (!field(f, 'MessageSid') || from === undefined || body === undefined) return [];
    if (field(f, 'MessageStatus') && field(f, 'MessageStatus') !== 'received') return [];
    return [
      { from: from.replace(/\D/g, ''), to: field(f, 'To') ?? null, text: body, at: new Date() },
    ];
  },
  // An empty TwiML answer: nothing to send back, and no schema warning on Twilio's side.
  reply: {
    contentType: 'text/xml; charset=utf-8',
    body: '<?xml version="1.0" encoding="UTF-8"?><Response></Response>',
  },
};
