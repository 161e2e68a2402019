import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '@herald/contract';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { AppError } from '../lib/app-error.js';
import { RateLimiter } from './rate-limit.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('RateLimiter.consume', () => {
  it('lets exactly `max` of many attempts sent at once through, the rest with Retry-After', async () => {
    const limiter = new RateLimiter(t.db);
    const limit = { max: 5, windowSeconds: 60 };
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, () => limiter.consume([['test:burst', limit]])),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(limit.max);
    for (const r of results) {
      if (r.status === 'rejected') {
        expect(r.reason).toBeInstanceOf(AppError);
        const err = r.reason as AppError;
        expect(err.status).toBe(429);
        expect(Number(err.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
  });

  it('refuses when any key is over its limit, and a refund gives one attempt back', async () => {
    const limiter = new RateLimiter(t.db);
    const tight = { max: 1, windowSeconds: 60 };
    const loose = { max: 100, windowSeconds: 60 };
    await limiter.consume([
      ['test:tight', tight],
      ['test:loose', loose],
    ]);
    await expect(
      limiter.consume([
        ['test:tight', tight],
        ['test:loose', loose],
      ]),
    ).rejects.toBeInstanceOf(AppError);
    await t.db
      .updateTable('rate_limits')
      .set({ hits: 1 })
      .where('key', '=', 'test:tight')
      .execute();
    await limiter.refund(['test:tight']);
    await expect(limiter.consume([['test:tight', tight]])).resolves.toBeUndefined();
  });
});

describe('RateLimiter.consume on a leaky limit', () => {
  it('refuses until the next step only, then lets exactly one of a burst in', async () => {
    const limiter = new RateLimiter(t.db);
    const limit = { max: 4, windowSeconds: 120, leaky: true };
    const burst = () =>
      Promise.allSettled(
        Array.from({ length: 20 }, () => limiter.consume([['test:leaky', limit]])),
      );
    const first = await burst();
    expect(first.filter((r) => r.status === 'fulfilled')).toHaveLength(limit.max);
    for (const r of first) {
      if (r.status === 'rejected') {
        const retryAfter = Number((r.reason as AppError).headers['retry-after']);
        // One step is 120 / 4 = 30 s, not the 120 s window.
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(30);
      }
    }
    // One step and a bit later: the refused attempts took no place, so one (only one) fits.
    await t.db
      .updateTable('rate_limits')
      .set({ window_start: new Date(Date.now() - 31_000) })
      .where('key', '=', 'test:leaky')
      .execute();
    expect((await burst()).filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('counts an attempt whose statement started before the last drain as now, not a step back', async () => {
    const limit = { max: 2, windowSeconds: 120, leaky: true };
    const key = 'test:leaky-order';
    const outside = new RateLimiter(t.db);
    const outcome = (p: Promise<void>) =>
      p.then(
        () => 'ok',
        (err: unknown) => (err instanceof AppError ? 'refused' : Promise.reject(err)),
      );
    const order: string[] = [];
    // The second attempt's transaction starts first (its now() is earliest) but reaches the
    // row after the first attempt wrote it, as statements of a burst do on a busy machine.
    await t.db.transaction().execute(async (tx) => {
      await sql`SELECT now()`.execute(tx);
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push(await outcome(outside.consume([[key, limit]])));
      order.push(await outcome(new RateLimiter(tx).consume([[key, limit]])));
    });
    order.push(await outcome(outside.consume([[key, limit]])));
    order.push(await outcome(outside.consume([[key, limit]])));
    expect(order).toEqual(['ok', 'ok', 'refused', 'refused']);
  });
});

describe('client address behind a proxy', () => {
  it('with one trusted hop, a forged X-Forwarded-For entry does not change the limited address', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: '1' });
    try {
      const { max } = RATE_LIMITS.loginFailuresPerIp;
      const attempt = (i: number) =>
        proxied.request({
          method: 'POST',
          url: '/api/login',
          payload: { email: `xff-${i}@test.local`, password: 'spray-guess' },
          remoteAddress: '10.0.0.1',
          // The client wrote the first entry; the proxy appended the address it saw.
          headers: { 'x-forwarded-for': `198.51.100.${i % 250}, 203.0.113.7` },
        });
      for (let i = 0; i < max; i++) expect((await attempt(i)).statusCode).toBe(401);
      expect((await attempt(max)).statusCode).toBe(429);
      const row = await proxied.db
        .selectFrom('rate_limits')
        .select(['key', 'hits'])
        .where('key', 'like', 'login:ip:%')
        .execute();
      expect(row).toEqual([{ key: 'login:ip:203.0.113.7', hits: max + 1 }]);
    } finally {
      await proxied.close();
    }
  });
});
