import type { ErrorClass } from '@herald/contract';
import type { ProviderError } from './provider.js';

/**
 * What the engine does with each WhatsApp Cloud API error code, whether it came in the send's
 * answer or later in a `failed` status (docs/delivery.md, Providers). The codes and their titles
 * are Meta's (Cloud API error codes); the title is what the recipient's row keeps as the reason.
 */
export const WHATSAPP_ERRORS: Readonly<Record<number, { kind: ErrorClass; title: string }>> = {
  // The sender's throughput: slow every instance down, the try not counted.
  130429: { kind: 'throttled', title: 'Rate limit hit' },
  // Application and account call limits (Graph API): the same cure.
  4: { kind: 'throttled', title: 'API Too Many Calls' },
  80007: { kind: 'throttled', title: 'Rate limit issues' },
  // Too many messages to this one person: only this recipient waits.
  131056: {
    kind: 'recipient_throttled',
    title: '(Business Account, Consumer Account) pair rate limit hit',
  },
  // The number's quality or the template stopped the whole campaign: the Admin must look.
  131048: { kind: 'pause_campaign', title: 'Spam rate limit hit' },
  132015: { kind: 'pause_campaign', title: 'Template is Paused' },
  132016: { kind: 'pause_campaign', title: 'Template is Disabled' },
  // The account itself cannot send (token expired, account locked or blocked): every recipient
  // would fail alike, so the campaign waits for the Admin instead.
  0: { kind: 'pause_campaign', title: 'AuthException' },
  190: { kind: 'pause_campaign', title: 'Access token has expired' },
  368: { kind: 'pause_campaign', title: 'Temporarily blocked for policies violations' },
  131031: { kind: 'pause_campaign', title: 'Account has been locked' },
  // This recipient will not get this message, whatever we do.
  131047: { kind: 'permanent', title: 'Re-engagement message' },
  131026: { kind: 'permanent', title: 'Message Undeliverable' },
  131049: {
    kind: 'permanent',
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
  },
  132000: {
    kind: 'permanent',
    title: 'Number of parameters does not match the expected number of params',
  },
  132001: { kind: 'permanent', title: 'Template does not exist' },
  132005: { kind: 'permanent', title: 'Translated text too long' },
  132007: { kind: 'permanent', title: 'Template Format Character Policy Violated' },
  132012: {
    kind: 'permanent',
    title: 'Parameter format does not match format in the created template',
  },
  // The person stopped marketing messages from this business: fail and remember the number.
  131050: {
    kind: 'opted_out',
    title:
      'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
  },
  // Meta's own trouble: try again later.
  131000: { kind: 'retryable', title: 'Something went wrong' },
  131016: { kind: 'retryable', title: 'Service unavailable' },
  133004: { kind: 'retryable', title: 'Server temporarily unavailable' },
};

/**
 * The engine's reading of a WhatsApp error. Codes outside the table are retried, so a new code
 * Meta adds costs at most DELIVERY_MAX_ATTEMPTS tries before the recipient fails with it.
 */
export function classifyWhatsAppError(error: ProviderError): ErrorClass {
  const code = Number(error.code);
  if (!Number.isInteger(code)) return 'retryable'; // network: the request never got an answer
  const known = WHATSAPP_ERRORS[code];
  if (known) return known.kind;
  if (code === 429) return 'throttled'; // an HTTP status without a Graph error body
  return 'retryable';
}

/** The reason a row keeps: the table's title when the code is known, else what Meta said. */
export function whatsAppReason(code: number, given: string | undefined): string {
  return WHATSAPP_ERRORS[code]?.title ?? (given || `WhatsApp error ${code}`);
}
