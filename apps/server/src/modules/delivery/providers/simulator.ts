import { createHmac, timingSafeEqual } from 'node:crypto';
import { Pool } from 'undici';
import { z } from 'zod';
import { STATUS_EVENT_STATES, type ErrorClass } from '@herald/contract';
import { badRequest } from '../../../lib/app-error.js';
import { BATCH_MAX } from './simulator-server.js';
import {
  ProviderSendError,
  type BatchAnswer,
  type AnswerObserver,
  type OutboundMessage,
  type ProviderAdapter,
  type InboundMessage,
  type ProviderError,
  type SendAccepted,
  type StatusEvent,
} from './provider.js';
import { SIMULATOR_CODES } from './simulator-rules.js';
import { hasInbound, InboundBodySchema, isInboundOnly } from './simulator-inbound.js';

/**
 * The engine's side of the simulator provider: sends over an undici keep-alive connection pool
 * to a simulator (in-process or its own process), reads its refusals the way a WhatsApp adapter
 * would, and checks and parses its signed status webhooks. undici rather than node:http because
 * the client's CPU per message bounds the 5,000 msg/s target (docs/performance.md, Delivery
 * at scale): an undici keep-alive client measured 14-17k requests/s on the bench machine's cores.
 */

export const SIGNATURE_HEADER = 'x-herald-signature';
const SEND_TIMEOUT_MS = 15_000;

const CallbackSchema = z.object({
  events: z.array(
    z.object({
      reference: z.string().min(1),
      id: z.string().min(1).nullable().optional(),
      status: z.enum(STATUS_EVENT_STATES),
      timestamp: z.iso.datetime({ offset: true }),
      error: z.object({ code: z.union([z.number(), z.string()]), title: z.string() }).optional(),
    }),
  ),
});

const ErrorBodySchema = z.object({
  error: z.object({ code: z.number().optional(), message: z.string().optional() }),
});

export class SimulatorAdapter implements ProviderAdapter {
  readonly simulated = true;
  /** The simulator's bulk endpoint takes this many (simulator-server.ts BATCH_MAX). */
  readonly maxBatch = BATCH_MAX;
  private readonly pool: Pool;

  constructor(
    baseUrl: string,
    private readonly secret: string,
    /** Connections kept open: at least the messages in flight at once. */
    maxSockets = 256,
    /** The provider's key (docs/delivery.md, Providers in the database). */
    readonly name = 'simulator',
  ) {
    this.pool = new Pool(new URL(baseUrl).origin, {
      connections: maxSockets,
      keepAliveTimeout: 30_000,
      headersTimeout: SEND_TIMEOUT_MS,
      bodyTimeout: SEND_TIMEOUT_MS,
    });
  }

  async send(
    message: OutboundMessage,
    signal?: AbortSignal,
    observe?: AnswerObserver,
  ): Promise<SendAccepted> {
    const { status, text, retryAfter } = await this.post(
      '/v1/messages',
      this.json(message),
      signal,
    );
    observe?.({ status, body: text });
    if (status >= 200 && status < 300) {
      const id = parseId(text);
      if (id) return { providerMessageId: id };
      throw new ProviderSendError({ code: String(status), text: 'No message id' });
    }
    throw new ProviderSendError(refusal(status, text, retryAfter));
  }

  /** POST /v1/messages/batch: one request for up to BATCH_MAX messages, one answer each. */
  async sendBatch(messages: OutboundMessage[], signal?: AbortSignal): Promise<BatchAnswer[]> {
    const body = `{"messages":[${messages.map((m) => this.json(m)).join(',')}]}`;
    const { status, text, retryAfter } = await this.post('/v1/messages/batch', body, signal);
    if (status < 200 || status >= 300) {
      throw new ProviderSendError(refusal(status, text, retryAfter));
    }
    const answers = parseBatch(text);
    if (answers?.length !== messages.length) {
      throw new ProviderSendError({ code: String(status), text: 'Batch answer does not match' });
    }
    return answers;
  }

  /** A message's JSON: only the reference and the number change between a campaign's. */
  private json(m: OutboundMessage): string {
    return `{"reference":${JSON.stringify(m.reference)},"to":${JSON.stringify(m.to)},${this.tailOf(m)}`;
  }

  private tail: { of: Omit<OutboundMessage, 'reference' | 'to'>; json: string } | null = null;

  /** The body's campaign part, `"type":...}`, built once per campaign (and media/cta list). */
  private tailOf(m: OutboundMessage): string {
    const t = this.tail?.of;
    if (
      t &&
      t.campaignId === m.campaignId &&
      t.message === m.message &&
      t.creditType === m.creditType &&
      t.media === m.media &&
      t.cta === m.cta
    ) {
      return (this.tail as { json: string }).json;
    }
    const json = JSON.stringify({
      type: m.creditType,
      text: m.message,
      ...(m.media.length ? { media: m.media.map((f) => ({ kind: f.kind, mime: f.mime })) } : {}),
      ...(m.cta ? { cta: m.cta } : {}),
    }).slice(1);
    this.tail = { of: m, json };
    return json;
  }

  private async post(
    path: string,
    body: string,
    signal?: AbortSignal,
  ): Promise<{ status: number; text: string; retryAfter: string | undefined }> {
    try {
      const res = await this.pool.request({
        path,
        method: 'POST',
        // The simulator sends only for whoever holds its secret (simulator-server.ts).
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.secret}` },
        body,
        signal,
      });
      const retryAfter = res.headers['retry-after'];
      return {
        status: res.statusCode,
        text: await res.body.text(),
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      };
    } catch (err) {
      throw new ProviderSendError({
        code: 'network',
        text: err instanceof Error ? err.message : String(err),
      });
    }
  }

  classifyError(error: ProviderError): ErrorClass {
    const code = Number(error.code);
    if (!Number.isInteger(code)) return 'retryable'; // network: never reached the provider
    if (code === SIMULATOR_CODES.rateLimit || code === 429) return 'throttled';
    if (code === SIMULATOR_CODES.pairRateLimit) return 'recipient_throttled';
    if (code === SIMULATOR_CODES.optedOut) return 'opted_out';
    if (code >= 500 && code < 600) return 'retryable';
    return 'permanent';
  }

  verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): boolean {
    const given = headers[SIGNATURE_HEADER];
    if (typeof given !== 'string' || !given.startsWith('sha256=')) return false;
    const expected = createHmac('sha256', this.secret).update(rawBody).digest();
    const actual = Buffer.from(given.slice('sha256='.length), 'hex');
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  parseStatusCallback(body: unknown): StatusEvent[] {
    // An inbound body (simulator-inbound.ts) carries messages, not events.
    if (isInboundOnly(body)) return [];
    const parsed = CallbackSchema.safeParse(body);
    if (!parsed.success) throw badRequest();
    return parsed.data.events.map((e) => ({
      reference: e.reference,
      providerMessageId: e.id ?? null,
      state: e.status,
      at: new Date(e.timestamp),
      ...(e.error ? { error: { code: String(e.error.code), text: e.error.title } } : {}),
    }));
  }

  parseInbound(body: unknown): InboundMessage[] {
    if (!hasInbound(body)) return [];
    const parsed = InboundBodySchema.safeParse(body);
    if (!parsed.success) throw badRequest();
    return parsed.data.messages.map((m) => ({
      from: m.from,
      to: m.to ?? null,
      text: m.text,
      at: new Date(m.timestamp),
    }));
  }

  /** Closes the kept-alive connections. */
  close(): void {
    void this.pool.destroy().catch(() => {});
  }
}

function parseId(text: string): string | null {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'string') {
      return body.id;
    }
  } catch {
    // not JSON: no id
  }
  return null;
}

const BatchSchema = z.object({
  results: z.array(
    z.union([
      z.object({ id: z.string().min(1) }),
      z.object({ status: z.number().int(), error: ErrorBodySchema.shape.error }),
    ]),
  ),
});

/** The per-message answers of a batch; null when the body is not one. */
function parseBatch(text: string): BatchAnswer[] | null {
  let parsed;
  try {
    parsed = BatchSchema.safeParse(JSON.parse(text));
  } catch {
    return null;
  }
  if (!parsed.success) return null;
  return parsed.data.results.map((r): BatchAnswer => {
    if ('id' in r) return { ok: true, providerMessageId: r.id };
    return {
      ok: false,
      error: {
        code: String(r.error.code ?? r.status),
        text: r.error.message ?? `HTTP ${r.status}`,
      },
    };
  });
}

/** The provider's code and message when the body has them, else the HTTP status. */
function refusal(status: number, text: string, retryAfter: string | undefined): ProviderError {
  let parsed: z.infer<typeof ErrorBodySchema> | undefined;
  try {
    const r = ErrorBodySchema.safeParse(JSON.parse(text));
    if (r.success) parsed = r.data;
  } catch {
    // not JSON: the status alone
  }
  const seconds = retryAfter === undefined ? NaN : Number(retryAfter);
  return {
    code: String(parsed?.error.code ?? status),
    text: parsed?.error.message ?? (text.slice(0, 200) || `HTTP ${status}`),
    ...(Number.isFinite(seconds) && seconds >= 0 ? { retryAfterSeconds: seconds } : {}),
  };
}
