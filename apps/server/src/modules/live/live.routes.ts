import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LIVE_PATH, server as msg } from '@herald/contract';
import { AppError } from '../../lib/app-error.js';
import { caller } from '../../plugins/auth.js';
import { keepsUp, LiveHub, type LiveClient } from './live-hub.js';

/**
 * GET /api/live: Server-Sent Events telling an open page that its notifications or
 * announcements changed (the badge rises within a second, on any instance). It
 * authenticates like every route, by the bearer header (the page reads it with a streaming
 * fetch; the long-lived token never goes into a URL), ends when the token expires or is revoked,
 * and sends a comment every 25 s so idle proxies keep it open.
 */
export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const hub = new LiveHub(ctx.db, ctx.databaseUrl, (m, err) => ctx.log.warn({ err }, m));
  // preClose: open streams would otherwise hold the server's close until they end.
  app.addHook('preClose', () => hub.stop());

  app.get(LIVE_PATH.slice('/api'.length), async (req, reply) => {
    const user = caller(req);
    // A plain request (a fuzzer, a link) gets an answer instead of a stream that never ends.
    if (!req.headers.accept?.includes('text/event-stream')) {
      throw new AppError(406, msg.liveNeedsEventStream);
    }
    const claims = ctx.tokens.verify(req.headers.authorization?.slice(7).trim() ?? '');
    if (!claims) throw new AppError(401, msg.sessionEnded);
    await hub.ready();

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // nginx and similar proxies would otherwise hold the frames back.
      'x-accel-buffering': 'no',
      // A stream's socket is not worth reusing; closed with it, it cannot hold a shutdown.
      connection: 'close',
    });
    res.write('retry: 5000\n: connected\n\n');

    const client: LiveClient = {
      userId: user.id,
      role: user.role,
      tokenVersion: user.tokenVersion,
      write: (frame) => {
        if (res.destroyed) return false;
        res.write(frame);
        return keepsUp(res.writableLength);
      },
      close: () => {
        if (!res.writableEnded) res.end();
      },
    };
    const remove = hub.add(client);
    // setTimeout holds at most 2^31-1 ms; a token lives far shorter.
    const left = Math.min(2 ** 31 - 1, Math.max(0, claims.exp * 1000 - Date.now()));
    const expiry = setTimeout(() => client.close(), left);
    expiry.unref();
    // Ended by either side: the stream leaves the hub and its expiry timer goes.
    res.on('close', () => {
      clearTimeout(expiry);
      remove();
    });
  });
};
