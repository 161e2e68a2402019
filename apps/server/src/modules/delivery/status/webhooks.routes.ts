import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RATE_LIMITS, server as msg, WEBHOOK_BODY_LIMIT_BYTES } from '@herald/contract';
import type { AppContext } from '../../../context.js';
import { AppError, badRequest, forbidden, notFound, unauthorized } from '../../../lib/app-error.js';
import type { InboundMessage, ProviderAdapter, StatusEvent } from '../providers/provider.js';
import { applyInbound } from './inbound.js';
import {
  progressThrottleFor,
  StatusWriter,
  transactionalBatchWrite,
  type StatusWriterOptions,
} from './status-writer.js';

/**
 * POST /api/delivery/webhooks/:provider[/:token]: providers report sent, delivered, read and
 * failed here, and hand over the messages people send back (STOP, START: inbound.ts). No login:
 * the provider's signature (over the raw body, or the URL and form fields) is the credential,
 * so this scope keeps bodies as bytes; a provider that signs nothing (Jasmin) is addressed with
 * an unguessable token path segment instead. The events go to this instance's StatusWriter, and
 * the answer waits until the batch holding them committed: 200 (in the body the provider
 * expects) means written; 503 makes the provider send them again, so an event is never lost to
 * a crash or a failed write. GET on the same paths answers a provider's subscription check
 * (WhatsApp's hub.challenge). docs/delivery.md, Providers.
 */

const tooLarge = () =>
  new AppError(413, msg.webhookBodyTooLarge(WEBHOOK_BODY_LIMIT_BYTES / (1024 * 1024)));

/** The rate-limit key of the address a webhook request comes from. */
export const webhookRateKey = (ip: string) => `webhook:ip:${ip}`;

const ParamsSchema = z.object({
  provider: z.string().min(1).max(50),
  token: z.string().min(1).max(200).optional(),
});
const QuerySchema = z.record(z.string(), z.string());
/** What a provider's key looks like (docs/delivery.md, Providers in the database). */
const PROVIDER_KEY = /^[A-Za-z0-9_-]{1,50}$/;
const ReplySchema = z.object({ received: z.number().int() });

const writers = new WeakMap<AppContext, StatusWriter>();

/** This instance's status writer, once its routes are registered (tests read its stats). */
export function statusWriterOf(ctx: AppContext): StatusWriter | undefined {
  return writers.get(ctx);
}

export interface WebhookRoutesOptions {
  writer?: StatusWriterOptions;
}

export const webhookRoutes: FastifyPluginAsyncZod<WebhookRoutesOptions> = async (app, opts) => {
  const { ctx } = app;
  const progress = progressThrottleFor(ctx);
  const writer = new StatusWriter(transactionalBatchWrite(ctx, progress), ctx.log, opts.writer);
  writers.set(ctx, writer);
  // Requests in flight finish first (Fastify waits for them), then what they handed in.
  app.addHook('onClose', async () => {
    await writer.close();
    progress.close();
  });

  // Only this plugin's scope: the signature is checked over the exact bytes received.
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(
    ['application/json', '*'],
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES },
    (_req, body, done) => done(null, body),
  );

  // Fastify's own 413 for a body that outgrew the limit while it was read, with this route's
  // message; every other error goes on to the app's handler as it is.
  app.setErrorHandler((err: { code?: unknown }) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw tooLarge();
    throw err;
  });

  for (const path of ['/delivery/webhooks/:provider', '/delivery/webhooks/:provider/:token']) {
    app.post(
      path,
      {
        config: { public: true },
        schema: { params: ParamsSchema, response: { 200: ReplySchema } },
        // Before the body is read: no login guards this route, so a stranger's flood is refused
        // before it costs a buffered body or a signature check (docs/delivery.md, Status
        // webhooks and signatures).
        onRequest: (req) => admit(req),
      },
      async (req, reply) => {
        const adapter = await adapterOf(req.params.provider, req.params.token);
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        // The signature before anything of the body is parsed.
        if (!adapter.verifyCallback(req.headers, raw, { url: req.url })) {
          throw unauthorized(msg.webhookSignatureInvalid);
        }
        const { events, inbound } = parseBody(adapter, raw, req.headers['content-type']);
        try {
          await writer.submit(events, {
            provider: adapter.name,
            pauses: (error) => adapter.classifyError(error) === 'pause_campaign',
            optedOut: (error) => adapter.classifyError(error) === 'opted_out',
          });
          // People's STOP and START replies (docs/delivery.md, Opt-outs).
          await applyInbound(ctx.db, adapter.name, inbound);
        } catch {
          throw new AppError(503, msg.webhookNotWritten, { 'retry-after': '1' });
        }
        return answer(reply, adapter, { received: events.length + inbound.length });
      },
    );
    app.get(
      path,
      {
        config: { public: true },
        schema: { params: ParamsSchema, querystring: QuerySchema },
        onRequest: (req) => admit(req),
      },
      async (req, reply) => {
        const adapter = await adapterOf(req.params.provider, req.params.token);
        const challenge = adapter.verifySubscription?.(req.query) ?? null;
        if (challenge === null) throw forbidden(msg.webhookSubscriptionRefused);
        return reply.type('text/plain; charset=utf-8').send(challenge);
      },
    );
  }

  /**
   * A declared length past the limit answers 413 without a database round trip; then the
   * address's rate limit. A body sent without a length meets the same limit while it is read.
   */
  async function admit(req: FastifyRequest): Promise<void> {
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > WEBHOOK_BODY_LIMIT_BYTES) throw tooLarge();
    await ctx.rateLimiter.consume([[webhookRateKey(req.ip), RATE_LIMITS.webhookPerIp]]);
  }

  /**
   * The provider's adapter, by its key, with the path's token checked: one that has a callback
   * token needs exactly it (compared in constant time), one without takes no token segment.
   */
  async function adapterOf(provider: string, token: string | undefined): Promise<ProviderAdapter> {
    // A key is `simulator` or a provider's id: anything else names no provider, and is not
    // looked up (a NUL byte would not even reach PostgreSQL as text).
    if (!PROVIDER_KEY.test(provider)) throw notFound(msg.webhookProviderUnknown);
    const endpoint = await ctx.delivery.endpoint(provider);
    if (!endpoint) throw notFound(msg.webhookProviderUnknown);
    const expected = endpoint.callbackToken;
    if (expected === undefined) {
      if (token !== undefined) throw notFound(msg.webhookProviderUnknown);
    } else if (token === undefined || !sameSecret(token, expected)) {
      throw unauthorized(msg.webhookSignatureInvalid);
    }
    return endpoint.adapter;
  }
};

/** Equal strings, compared through their digests so neither length nor content leaks by time. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The adapter's own reply body when it has one (Jasmin's `ACK/Jasmin`), else the JSON count. */
function answer(reply: FastifyReply, adapter: ProviderAdapter, json: { received: number }) {
  const own = adapter.callbackReply?.();
  if (!own) return json;
  return reply.type(own.contentType).send(own.body);
}

/** A webhook body's status events and, for an adapter that reads them, inbound messages. */
function parseBody(
  adapter: ProviderAdapter,
  raw: Buffer,
  contentType: string | undefined,
): { events: StatusEvent[]; inbound: InboundMessage[] } {
  try {
    const body = adapter.parseBody
      ? adapter.parseBody(raw, contentType)
      : (JSON.parse(raw.toString('utf8')) as unknown);
    return {
      events: adapter.parseStatusCallback(body),
      inbound: adapter.parseInbound?.(body) ?? [],
    };
  } catch {
    throw badRequest(msg.webhookBodyInvalid);
  }
}
