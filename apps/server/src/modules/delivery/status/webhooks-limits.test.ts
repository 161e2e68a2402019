import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { RATE_LIMITS, server as msg, WEBHOOK_BODY_LIMIT_BYTES } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { messageOf } from '../../campaigns/campaign-actions.test-fixtures.js';
import { signature } from './status.test-fixtures.js';
import { statusWriterOf, webhookRateKey } from './webhooks.routes.js';

/**
 * POST /api/delivery/webhooks/:provider before the signature: the body limit and the
 * per-address rate limit, both checked before any HMAC work (docs/delivery.md, Status webhooks
 * and signatures).
 */

const SECRET = 'webhook-limits-secret-0123456789';
const URL = '/api/delivery/webhooks/simulator';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_WEBHOOK_SECRET: SECRET });
});
afterAll(() => t.close());

function post(remoteAddress: string, body: string | Readable, sig: string) {
  return t.app.inject({
    method: 'POST',
    url: URL,
    remoteAddress,
    headers: { 'content-type': 'application/json', 'x-herald-signature': sig },
    payload: body,
  });
}

async function rateRows(ip: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM rate_limits WHERE key = ${webhookRateKey(ip)}`.execute(
    t.ownerDb,
  );
  return rows[0]?.n ?? 0;
}

describe('webhook limits', () => {
  it('answers a 1.5 MB body with 413 without touching the database', async () => {
    const ip = '198.51.100.7';
    const body = JSON.stringify({ events: [], pad: 'x'.repeat(1.5 * 1024 * 1024) });
    const consume = vi.spyOn(t.app.ctx.rateLimiter, 'consume');
    const verify = vi.spyOn(t.app.ctx.delivery.adapterFor('simulator'), 'verifyCallback');
    const written = { ...statusWriterOf(t.app.ctx)?.stats };
    try {
      const res = await post(ip, body, signature(body, SECRET));
      expect([res.statusCode, messageOf(res)]).toEqual([413, msg.webhookBodyTooLarge(1)]);
      expect(consume).not.toHaveBeenCalled();
      expect(verify).not.toHaveBeenCalled();
    } finally {
      consume.mockRestore();
      verify.mockRestore();
    }
    expect(await rateRows(ip)).toBe(0);
    expect(statusWriterOf(t.app.ctx)?.stats).toEqual(written);
  });

  it('keeps the limit on the token path, and answers 404 to a token the provider has none for', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${URL}/some-token`,
      remoteAddress: '10.9.0.3',
      headers: {
        'content-type': 'application/json',
        'content-length': String(WEBHOOK_BODY_LIMIT_BYTES + 1),
      },
      payload: 'x',
    });
    expect(res.statusCode).toBe(413);
    const body = JSON.stringify({ events: [] });
    const token = await t.app.inject({
      method: 'POST',
      url: `${URL}/some-token`,
      remoteAddress: '10.9.0.3',
      headers: {
        'content-type': 'application/json',
        'x-herald-signature': signature(body, SECRET),
      },
      payload: body,
    });
    expect(token.statusCode).toBe(404);
    // A provider without a subscription check refuses the GET.
    const get = await t.app.inject({
      method: 'GET',
      url: `${URL}?hub.mode=subscribe`,
      remoteAddress: '10.9.0.3',
    });
    expect(get.statusCode).toBe(403);
  });

  it('answers a body past the limit sent without a length with the same 413', async () => {
    const body = Buffer.alloc(WEBHOOK_BODY_LIMIT_BYTES + 1, 0x20);
    const res = await post('198.51.100.8', Readable.from([body]), 'sha256=00');
    expect([res.statusCode, messageOf(res)]).toEqual([413, msg.webhookBodyTooLarge(1)]);
  });

  it('answers 429 with Retry-After past the per-address limit, before the signature', async () => {
    const ip = '198.51.100.9';
    const body = JSON.stringify({ events: [] });
    // Under the limit a bad signature is a 401: the request reached the signature check.
    expect((await post(ip, body, 'sha256=00')).statusCode).toBe(401);
    // The address has just sent a full burst: its bucket is full, none drained yet.
    await sql`
      UPDATE rate_limits SET hits = ${RATE_LIMITS.webhookPerIp.max},
        window_start = now() + interval '1 minute'
      WHERE key = ${webhookRateKey(ip)}`.execute(t.ownerDb);
    const verify = vi.spyOn(t.app.ctx.delivery.adapterFor('simulator'), 'verifyCallback');
    try {
      for (const sig of ['sha256=00', signature(body, SECRET)]) {
        const res = await post(ip, body, sig);
        expect([res.statusCode, messageOf(res)]).toEqual([429, msg.tooManyRequests]);
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      expect(verify).not.toHaveBeenCalled();
    } finally {
      verify.mockRestore();
    }
    // Another address is not held back by this one.
    const other = await post('198.51.100.10', body, signature(body, SECRET));
    expect(other.statusCode, other.body).toBe(200);
  });

  it('lets the offered webhooks of the benchmark through with room to spare', () => {
    // bench/delivery.mjs offers 3 x 1,000 events/s in requests of 100: 30 requests a second.
    const { max, windowSeconds } = RATE_LIMITS.webhookPerIp;
    expect(max / windowSeconds).toBeGreaterThanOrEqual(3 * 30);
  });
});
