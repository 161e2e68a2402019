import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { StatusEventQueue } from './simulator-events.js';
import { serveInbound } from './simulator-inbound.js';
import { SIMULATOR_CODES, outcomeOf, refusalFor } from './simulator-rules.js';

/**
 * The built-in simulator provider: a loopback HTTP service that stands in for a
 * messaging provider, so a fresh install, the tests and the benchmark deliver campaigns with no
 * account anywhere. Nothing it accepts leaves this machine.
 *
 * POST /v1/messages `{ reference, to, type, text, media?, cta? }` answers 200 `{ id }`.
 * - Rate cap: a token bucket of `ratePerSecond` (burst 0.1 s worth, at least 1); above it
 *   429 `{ error: { code: 130429, message: 'Rate limit hit' } }`.
 * - Idempotency: a `reference` seen before (within 15 minutes, or the last million at least)
 *   answers its first id and counts a duplicate; it is not delivered again.
 * - Test numbers, by the last digits of `to` (SIMULATOR_RULES):
 *   `...0000` always 400 code 131026 'Message undeliverable' (permanent);
 *   `...1050` always 400 code 131050 (the person stopped marketing messages: an opt-out);
 *   `...1313` the first 2 attempts 429 code 131056 (pair rate limit), then accepted;
 *   `...5000` the first attempt 500 (transient, no provider code), then accepted.
 * - An accepted message reports `sent` after delayMs, then `delivered` or `failed`
 *   (failRatio; code 131049 'Message not delivered') after another delayMs, then `read`
 *   (readRatio of the delivered) after another. The outcome is a hash of the reference, so a
 *   run is repeatable.
 * - Events go to `callbackUrl` in signed batches (simulator-events.ts).
 * POST /v1/messages/batch `{ messages: [...] }` (at most BATCH_MAX, as a provider's bulk
 * endpoint takes them) answers 200 `{ results: [...] }`, one per message in order: `{ id }`, or
 * `{ status, error }` with the status and body the single send would have answered; the rate
 * cap, the rules and idempotency count each message as if sent alone.
 * GET /v1/stats answers SimulatorStats.
 * POST /v1/inbound `{ from, text, to? }`, from loopback only, makes the simulator send the app a
 * signed inbound message, as a person replying STOP or START (simulator-inbound.ts); it answers
 * 200 `{ status }` with the webhook's HTTP status, or 409 while no callback URL is set.
 */

export { SIMULATOR_CODES, SIMULATOR_RULES, outcomeOf } from './simulator-rules.js';

export interface SimulatorOptions {
  ratePerSecond: number;
  failRatio: number;
  readRatio: number;
  delayMs: number;
  /** Signs the status callbacks (x-herald-signature). */
  secret: string;
  callbackUrl?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  onCallbackError?: (message: string) => void;
}

export interface SimulatorStats {
  /** Messages accepted once (duplicates not counted). */
  accepted: number;
  /** Sends of a reference already accepted. */
  duplicates: number;
  /** 429s of the rate cap. */
  throttled: number;
  /** Refusals by the test-number rules and invalid requests. */
  rejected: number;
  /** Events still to be reported or not yet taken by the receiver. */
  eventsPending: number;
  /** Events the receiver answered 2xx for. */
  eventsDelivered: number;
}

/** How long, and how many, references are remembered for idempotency (per generation). */
export const IDEMPOTENCY_WINDOW_MS = 15 * 60_000;
export const IDEMPOTENCY_GENERATION_MAX = 1_000_000;

const BODY_LIMIT = 64 * 1024;
/** Messages in one POST /v1/messages/batch, and that request's body limit. */
export const BATCH_MAX = 100;
const BATCH_BODY_LIMIT = BATCH_MAX * BODY_LIMIT;
const REFERENCE_MAX = 200;
const PHONE = /^\d{4,20}$/;

export class SimulatorServer {
  private readonly server: http.Server;
  private readonly events: StatusEventQueue;
  /**
   * reference -> sequence number of its id, in two generations: the older one is dropped when
   * the current one is IDEMPOTENCY_WINDOW_MS old or IDEMPOTENCY_GENERATION_MAX full, so a
   * reference is remembered at least that long (a crashed sender re-sends within minutes) and
   * a long-running app's simulator does not grow without end.
   */
  private ids = new Map<string, number>();
  private olderIds = new Map<string, number>();
  private idsSince = Date.now();
  /** Attempts so far of references under a rule that refuses the first ones. */
  private readonly attempts = new Map<string, number>();
  private readonly idPrefix = `sim-${randomBytes(4).toString('hex')}-`;
  private readonly burst: number;
  private tokens: number;
  private tokensAt = Date.now();
  private seq = 0;
  private counts = { accepted: 0, duplicates: 0, throttled: 0, rejected: 0 };
  private callbackUrl: string | undefined;
  url = '';

  private constructor(private readonly opts: SimulatorOptions) {
    this.callbackUrl = opts.callbackUrl;
    this.burst = Math.max(1, opts.ratePerSecond * 0.1);
    this.tokens = this.burst;
    this.events = new StatusEventQueue({
      delayMs: opts.delayMs,
      secret: opts.secret,
      callbackUrl: opts.callbackUrl,
      onCallbackError: opts.onCallbackError,
    });
    this.server = http.createServer((req, res) => this.route(req, res));
    this.server.keepAliveTimeout = 65_000;
  }

  /** Starts listening (loopback, a free port unless `port` is set). */
  static async start(opts: SimulatorOptions): Promise<SimulatorServer> {
    const sim = new SimulatorServer(opts);
    const host = opts.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      sim.server.once('error', reject);
      sim.server.listen(opts.port ?? 0, host, () => resolve());
    });
    const { port } = sim.server.address() as AddressInfo;
    sim.url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    return sim;
  }

  /** Where status events go; events wait until one is set. */
  setCallbackUrl(url: string): void {
    this.callbackUrl = url;
    this.events.setCallbackUrl(url);
  }

  stats(): SimulatorStats {
    return {
      ...this.counts,
      eventsPending: this.events.pending,
      eventsDelivered: this.events.delivered,
    };
  }

  async close(): Promise<void> {
    this.events.close();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private route(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = req.url?.split('?')[0];
    // Like a real provider, it sends (and signs status events) only for the holder of its
    // secret: otherwise any local process could have queued recipients reported delivered.
    if (req.method === 'POST' && !this.authorized(req)) {
      return reply(res, 401, { error: { code: 401, message: 'Invalid OAuth access token' } });
    }
    if (req.method === 'POST' && path === '/v1/messages') {
      readJson(req, BODY_LIMIT, (body) => {
        const r = body === undefined ? this.invalid() : this.accept(body);
        reply(res, r.status, r.body);
      });
      return;
    }
    if (req.method === 'POST' && path === '/v1/messages/batch') {
      readJson(req, BATCH_BODY_LIMIT, (body) => {
        const messages = (body as { messages?: unknown } | undefined)?.messages;
        if (!Array.isArray(messages) || messages.length === 0 || messages.length > BATCH_MAX) {
          const r = this.invalid();
          return reply(res, r.status, r.body);
        }
        const results = messages.map((m) => {
          const r = this.accept(m);
          return r.status === 200 ? r.body : { status: r.status, ...r.body };
        });
        reply(res, 200, { results });
      });
      return;
    }
    if (req.method === 'GET' && path === '/v1/stats') return reply(res, 200, this.stats());
    if (req.method === 'POST' && path === '/v1/inbound') {
      return serveInbound(req, res, { url: this.callbackUrl, secret: this.opts.secret });
    }
    reply(res, 404, { error: { code: 404, message: 'Not found' } });
  }

  private authorized(req: http.IncomingMessage): boolean {
    const given = Buffer.from(req.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${this.opts.secret}`);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** One message, sent alone or in a batch: the status and body a single send answers. */
  private accept(body: unknown): { status: number; body: object } {
    if (typeof body !== 'object' || body === null) return this.invalid();
    const { reference, to } = body as { reference?: unknown; to?: unknown };
    if (typeof reference !== 'string' || !reference || reference.length > REFERENCE_MAX) {
      return this.invalid();
    }
    if (typeof to !== 'string' || !PHONE.test(to)) return this.invalid();

    if (!this.takeToken()) {
      this.counts.throttled++;
      return {
        status: 429,
        body: { error: { code: SIMULATOR_CODES.rateLimit, message: 'Rate limit hit' } },
      };
    }
    const known = this.ids.get(reference) ?? this.olderIds.get(reference);
    if (known !== undefined) {
      this.counts.duplicates++;
      return { status: 200, body: { id: this.idPrefix + known } };
    }
    const refusal = refusalFor(to, () => {
      const attempt = (this.attempts.get(reference) ?? 0) + 1;
      this.attempts.set(reference, attempt);
      return attempt;
    });
    if (refusal) {
      this.counts.rejected++;
      return refusal;
    }
    const seq = ++this.seq;
    this.remember(reference, seq);
    this.attempts.delete(reference);
    this.counts.accepted++;
    const id = this.idPrefix + seq;
    this.events.schedule(
      reference,
      id,
      outcomeOf(reference, this.opts.failRatio, this.opts.readRatio),
    );
    return { status: 200, body: { id } };
  }

  private remember(reference: string, seq: number): void {
    const now = Date.now();
    if (
      now - this.idsSince >= IDEMPOTENCY_WINDOW_MS ||
      this.ids.size >= IDEMPOTENCY_GENERATION_MAX
    ) {
      this.olderIds = this.ids;
      this.ids = new Map();
      this.idsSince = now;
    }
    this.ids.set(reference, seq);
  }

  private takeToken(): boolean {
    const now = Date.now();
    const rate = this.opts.ratePerSecond;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.tokensAt) * rate) / 1000);
    this.tokensAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private invalid(): { status: number; body: object } {
    this.counts.rejected++;
    return {
      status: 400,
      body: { error: { code: SIMULATOR_CODES.invalidParameter, message: 'Invalid parameter' } },
    };
  }
}

/** Reads a JSON body of at most `limit` bytes; `undefined` when too big or not JSON. */
function readJson(req: http.IncomingMessage, limit: number, then: (body: unknown) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size <= limit) chunks.push(c);
  });
  req.on('end', () => {
    if (size > limit) return then(undefined);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return then(undefined);
    }
    then(body ?? null);
  });
}

function reply(res: http.ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
