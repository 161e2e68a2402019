import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg } from '@herald/contract';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../../test/harness.js';
import { PasswordHasher } from './password.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // One running and two waiting hashes, each slow enough (cost 15) that a burst finds them busy.
  t.app.ctx.hasher = new PasswordHasher(15, 1, 2);
});
afterAll(() => t.close());

const wrongLogin = (email: string) =>
  t.request({ method: 'POST', url: '/api/login', payload: { email, password: 'wrong-password' } });

describe('a login storm', () => {
  it('gets 503 with Retry-After beyond the hash queue while other requests still answer', async () => {
    // The first unknown email builds the dummy hash; the burst then only verifies.
    expect((await wrongLogin('warm-up@test.local')).statusCode).toBe(401);

    let settled = false;
    const burst = Promise.all(
      Array.from({ length: 12 }, (_, i) => wrongLogin(`storm-${i}@test.local`)),
    ).finally(() => (settled = true));
    const health = await t.request({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(settled).toBe(false);

    const replies = await burst;
    const refused = replies.filter((r) => r.statusCode === 503);
    const answered = replies.filter((r) => r.statusCode === 401);
    expect(refused.length + answered.length).toBe(replies.length);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(answered.length).toBeGreaterThanOrEqual(3);
    for (const r of refused) {
      expect(r.json()).toEqual({ message: msg.serverBusy });
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }

    // Once the queue drained, a real login gets in again.
    const ok = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('turns a login away before any database work while the queue is full', async () => {
    // One hash running and two waiting fill the queue.
    const filling = Promise.all(['a', 'b', 'c'].map((p) => t.app.ctx.hasher.hash(p)));
    const reply = await wrongLogin('turned-away@test.local');
    expect(reply.statusCode).toBe(503);
    expect(Number(reply.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const counted = await t.db
      .selectFrom('rate_limits')
      .select('key')
      .where('key', 'like', '%turned-away%')
      .execute();
    expect(counted).toEqual([]);
    await filling;
  });
});
