import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RATE_LIMITS, type LoginReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { busy } from '../../lib/app-error.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (email: string, password: string, ip: string) =>
  t.request({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: ip });

const forgot = (email: string, ip: string) =>
  t.request({
    method: 'POST',
    url: '/api/forgot-password',
    payload: { email },
    remoteAddress: ip,
  });

describe('login limits per account', () => {
  it('an attacker locking one address out does not lock the owner out from another', async () => {
    const admin = await t.adminToken();
    const { user, password } = await t.createUser(admin, { role: 'User' });
    const { max } = RATE_LIMITS.loginFailuresPerAccountIp;
    for (let i = 0; i < max; i++) {
      expect((await login(user.email, `guess-${i}`, '10.20.0.1')).statusCode).toBe(401);
    }
    expect((await login(user.email, password, '10.20.0.1')).statusCode).toBe(429);
    const owner = await login(user.email, password, '10.20.0.2');
    expect(owner.statusCode).toBe(200);
    expect(owner.json<LoginReply>().user.id).toBe(user.id);
  });

  it('many addresses together reach the account ceiling: 429 with a short Retry-After, then one more try', async () => {
    const admin = await t.adminToken();
    const { user, password } = await t.createUser(admin, { role: 'User' });
    const { max, windowSeconds } = RATE_LIMITS.loginFailuresPerAccount;
    for (let i = 0; i < max; i++) {
      const ip = `10.21.${Math.floor(i / 250)}.${(i % 250) + 1}`;
      expect((await login(user.email, `guess-${i}`, ip)).statusCode).toBe(401);
    }
    for (const ip of ['10.21.9.1', '10.21.9.2']) {
      const refused = await login(user.email, password, ip);
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // One step of the bucket later exactly one attempt fits again, not after the whole window.
    await t.db
      .updateTable('rate_limits')
      .set({ window_start: new Date(Date.now() - ((windowSeconds / max) * 1000 + 500)) })
      .where('key', '=', `login:account:${user.email}`)
      .execute();
    expect((await login(user.email, password, '10.21.9.3')).statusCode).toBe(200);
    expect((await login(user.email, 'wrong-again', '10.21.9.4')).statusCode).toBe(401);
    expect((await login(user.email, 'wrong-again', '10.21.9.5')).statusCode).toBe(429);
  });

  it('a right password still logs in when the hasher is too busy to rehash it', async () => {
    const admin = await t.adminToken();
    const { user, password } = await t.createUser(admin, { role: 'User' });
    const before = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const needsRehash = vi.spyOn(t.app.ctx.hasher, 'needsRehash').mockReturnValue(true);
    const hash = vi.spyOn(t.app.ctx.hasher, 'hash').mockRejectedValue(busy(3));
    try {
      const res = await login(user.email, password, '10.22.0.1');
      expect(res.statusCode).toBe(200);
      expect(hash).toHaveBeenCalled();
    } finally {
      needsRehash.mockRestore();
      hash.mockRestore();
    }
    const after = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(after.password_hash).toBe(before.password_hash);
  });
});

describe('forgot-password limits per account', () => {
  it('a flood from one address does not block the owner asking from another', async () => {
    const admin = await t.adminToken();
    const { user } = await t.createUser(admin, { role: 'User' });
    const { max } = RATE_LIMITS.forgotPerAccountIp;
    for (let i = 0; i < max; i++)
      expect((await forgot(user.email, '10.23.0.1')).statusCode).toBe(200);
    expect((await forgot(user.email, '10.23.0.1')).statusCode).toBe(429);
    expect((await forgot(user.email, '10.23.0.2')).statusCode).toBe(200);
  });

  it('many addresses together reach the account ceiling and are told to retry within 60 s', async () => {
    const { max } = RATE_LIMITS.forgotPerAccount;
    const email = 'forgot-ceiling@test.local';
    for (let i = 0; i < max; i++)
      expect((await forgot(email, `10.24.0.${i + 1}`)).statusCode).toBe(200);
    const refused = await forgot(email, '10.24.1.1');
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });
});
