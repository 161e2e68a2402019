import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { Webhook } from 'standardwebhooks';
import { server as msg, WEBHOOK_SECRET_PREFIX } from '@herald/contract';
import { pinnedLookup, resolveWebhookHost } from './webhook-address.js';

/**
 * One signed call to a customer's endpoint (docs/api.md, Webhooks), the webhook adapter: the
 * body is signed per Standard Webhooks by the `standardwebhooks` package (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64>`); the host is resolved and checked at
 * send time and the connection pinned to that address; redirects are not followed (undici's
 * request follows none); the call has a time limit and at most WEBHOOK_ANSWER_MAX_BYTES of the
 * answer are read.
 */

/** The whole call, connect to last byte read. */
export const WEBHOOK_TIMEOUT_MS = 15_000;
/** An answer's body is read up to this much (its first bytes go to the log), then dropped. */
export const WEBHOOK_ANSWER_MAX_BYTES = 64 * 1024;
/** The first characters of a failed answer kept in the delivery log. */
const ERROR_TEXT_MAX = 200;

/** A new secret: `whsec_` + base64 of 32 random bytes, as Standard Webhooks' libraries read it. */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

export interface WebhookCall {
  url: string;
  secret: string;
  /** `webhook-id`: the same on each attempt of one event, so the receiver can drop repeats. */
  messageId: string;
  body: string;
  allowPrivate: boolean;
  timeoutMs?: number;
}

export interface WebhookOutcome {
  /** The endpoint's HTTP status, or null when none came. */
  statusCode: number | null;
  ok: boolean;
  durationMs: number;
  error: string | null;
  /** The answer's Retry-After, in milliseconds from now. */
  retryAfterMs: number | null;
  /** The address was refused (private or unresolvable): no connection was made. */
  blocked: boolean;
}

/** Standard Webhooks' three headers for `body`, sent at `at`. */
export function signedHeaders(secret: string, messageId: string, at: Date, body: string) {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  };
}

export async function callWebhook(call: WebhookCall): Promise<WebhookOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = await resolveWebhookHost(call.url, call.allowPrivate);
  if (!target.ok) {
    const error =
      target.reason === 'private' ? msg.webhookDeliveryBlocked : msg.webhookDeliveryUnresolvable;
    return failure(null, elapsed(), error, { blocked: true });
  }
  const timeoutMs = call.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const agent = new Agent({
    connect: { lookup: pinnedLookup(target.address, target.family), timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  try {
    const res = await request(call.url, {
      method: 'POST',
      dispatcher: agent,
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Herald-Webhooks/1',
        ...signedHeaders(call.secret, call.messageId, new Date(), call.body),
      },
      body: call.body,
    });
    const text = await readCapped(res.body);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    const header = res.headers['retry-after'];
    const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header);
    if (ok)
      return {
        statusCode: res.statusCode,
        ok,
        durationMs: elapsed(),
        error: null,
        retryAfterMs,
        blocked: false,
      };
    const snippet = text.trim().slice(0, ERROR_TEXT_MAX);
    return failure(
      res.statusCode,
      elapsed(),
      `HTTP ${res.statusCode}${snippet ? `: ${snippet}` : ''}`,
      {
        retryAfterMs,
      },
    );
  } catch (err) {
    return failure(null, elapsed(), describe(err));
  } finally {
    await agent.destroy().catch(() => {});
  }
}

function failure(
  statusCode: number | null,
  durationMs: number,
  error: string,
  extra: { retryAfterMs?: number | null; blocked?: boolean } = {},
): WebhookOutcome {
  return {
    statusCode,
    ok: false,
    durationMs,
    error,
    retryAfterMs: extra.retryAfterMs ?? null,
    blocked: extra.blocked ?? false,
  };
}

/** The answer's first bytes as text, at most WEBHOOK_ANSWER_MAX_BYTES; the rest is dropped. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= WEBHOOK_ANSWER_MAX_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, WEBHOOK_ANSWER_MAX_BYTES).toString('utf8');
}

/** Retry-After as delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError')
      return msg.webhookDeliveryTimedOut;
    const code = (err as Error & { code?: string }).code;
    return code ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}
