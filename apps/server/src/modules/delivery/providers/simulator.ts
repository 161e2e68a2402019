import http from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { STATUS_EVENT_STATES, type ErrorClass } from '@herald/contract';
import { badRequest } from '../../../lib/app-error.js';
import {
  ProviderSendError,
  type OutboundMessage,
  type ProviderAdapter,
  type ProviderError,
  type SendAccepted,
  type StatusEvent,
} from './provider.js';
import { SIMULATOR_CODES } from './simulator-rules.js';

/**
 * The engine's side of the simulator provider (issue 14): sends over a keep-alive connection
 * pool to a simulator (in-process or its own process), reads its refusals the way a WhatsApp
 * adapter would, and checks and parses its signed status webhooks.
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
  readonly name = 'simulator';
  readonly simulated = true;
  private readonly agent: http.Agent;
  private readonly endpoint: URL;

  constructor(
    baseUrl: string,
    private readonly secret: string,
    /** Connections kept open: at least the messages in flight at once. */
    maxSockets = 256,
  ) {
    this.endpoint = new URL('/v1/messages', baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, keepAliveMsecs: 30_000 });
  }

  send(message: OutboundMessage, signal?: AbortSignal): Promise<SendAccepted> {
    const body = JSON.stringify({
      reference: message.reference,
      to: message.to,
      type: message.creditType,
      text: message.message,
      ...(message.media.length
        ? { media: message.media.map((m) => ({ kind: m.kind, mime: m.mime })) }
        : {}),
      ...(message.cta ? { cta: message.cta } : {}),
    });
    return new Promise((resolve, reject) => {
      const networkError = (err: Error) =>
        reject(new ProviderSendError({ code: 'network', text: err.message }));
      const req = http.request(this.endpoint, {
        method: 'POST',
        agent: this.agent,
        timeout: SEND_TIMEOUT_MS,
        signal,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', networkError);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          if (status >= 200 && status < 300) {
            const id = parseId(text);
            if (id) return resolve({ providerMessageId: id });
            return reject(new ProviderSendError({ code: String(status), text: 'No message id' }));
          }
          reject(new ProviderSendError(refusal(status, text, res.headers['retry-after'])));
        });
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', networkError);
      req.end(body);
    });
  }

  classifyError(error: ProviderError): ErrorClass {
    const code = Number(error.code);
    if (!Number.isInteger(code)) return 'retryable'; // network: never reached the provider
    if (code === SIMULATOR_CODES.rateLimit || code === 429) return 'throttled';
    if (code === SIMULATOR_CODES.pairRateLimit) return 'recipient_throttled';
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

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
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
