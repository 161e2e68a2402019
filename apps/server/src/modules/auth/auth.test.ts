import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RATE_LIMITS, server as msg, type LoginReply } from '@herald/contract';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/login', () => {
  it('answers a token and the session user', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: ADMIN_EMAIL.toUpperCase(), password: ADMIN_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<LoginReply>();
    expect(body.user).toMatchObject({ email: ADMIN_EMAIL, role: 'Admin', status: 'Active' });
    expect(Object.keys(body.user).sort()).toEqual(
      [
        'createdAt',
        'email',
        'id',
        'mustChangePassword',
        'mustEnrolTwoFactor',
        'name',
        'role',
        'status',
        'twoFactorEnabled',
      ].sort(),
    );
    const me = await t.request({ method: 'GET', url: '/api/dashboard', token: body.token });
    expect(me.statusCode).toBe(200);
  });

  it('validates input with the contract messages', async () => {
    const res = await t.request({ method: 'POST', url: '/api/login', payload: { email: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Enter a valid email address.' });
    const empty = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: ADMIN_EMAIL, password: '' },
    });
    expect(empty.json()).toEqual({ message: 'Password is required.' });
  });

  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const a = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'nobody@test.local', password: 'whatever-1' },
    });
    const b = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: ADMIN_EMAIL, password: 'wrong-password' },
    });
    expect(a.statusCode).toBe(401);
    expect(b.statusCode).toBe(401);
    expect(a.json()).toEqual({ message: msg.invalidCredentials });
    expect(b.json()).toEqual(a.json());
  });

  it('rate-limits failed logins per (email, IP) with 429 and Retry-After, shared through the database', async () => {
    const email = 'victim@test.local';
    const { max } = RATE_LIMITS.loginFailuresPerAccountIp;
    for (let i = 0; i < max; i++) {
      const r = await t.request({
        method: 'POST',
        url: '/api/login',
        payload: { email, password: `guess-${i}` },
        remoteAddress: '10.0.0.1',
      });
      expect(r.statusCode).toBe(401);
    }
    const blocked = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email, password: 'another' },
      remoteAddress: '10.0.0.1',
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ message: msg.tooManyRequests });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const row = await t.db
      .selectFrom('rate_limits')
      .select('hits')
      .where('key', '=', `login:account-ip:${email}:10.0.0.1`)
      .executeTakeFirstOrThrow();
    // The refused attempt is counted too, capped one past the limit.
    expect(row.hits).toBe(max + 1);
  });

  it('lets at most the limit of 200 wrong logins sent at once reach the password hash', async () => {
    const admin = await t.adminToken();
    const { user } = await t.createUser(admin, { role: 'User' });
    const verify = vi.spyOn(t.app.ctx.hasher, 'verify');
    try {
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          t.request({
            method: 'POST',
            url: '/api/login',
            payload: { email: user.email, password: `burst-guess-${i}` },
            remoteAddress: `10.7.${Math.floor(i / 250)}.${(i % 250) + 1}`,
          }),
        ),
      );
      // Spread over many addresses, the per-account ceiling is what holds the burst back.
      const { max } = RATE_LIMITS.loginFailuresPerAccount;
      expect(verify.mock.calls.length).toBeLessThanOrEqual(max);
      expect(answers.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(200 - max);
    } finally {
      verify.mockRestore();
    }
  });

  it('shares failure counters between two server instances on one database', async () => {
    const other = await t.secondInstance();
    const email = 'shared-victim@test.local';
    const { max } = RATE_LIMITS.loginFailuresPerAccountIp;
    for (let i = 0; i < max; i++) {
      const target = i % 2 ? other : t.app;
      const r = await target.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email, password: `guess-${i}` },
        remoteAddress: '10.1.1.1',
      });
      expect(r.statusCode).toBe(401);
    }
    for (const target of [t.app, other]) {
      const r = await target.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email, password: 'x-guess' },
        remoteAddress: '10.1.1.1',
      });
      expect(r.statusCode).toBe(429);
    }
  });

  it('rate-limits failures per IP across emails', async () => {
    const { max } = RATE_LIMITS.loginFailuresPerIp;
    const ip = '10.9.9.9';
    for (let i = 0; i < max; i++) {
      await t.request({
        method: 'POST',
        url: '/api/login',
        payload: { email: `spray-${i}@test.local`, password: 'spray-guess' },
        remoteAddress: ip,
      });
    }
    const r = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      remoteAddress: ip,
    });
    expect(r.statusCode).toBe(429);
    const elsewhere = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      remoteAddress: '10.9.9.10',
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('refuses a blocked user with the same answer for the right and a wrong password', async () => {
    const admin = await t.adminToken();
    const { user } = await t.createUser(admin, { role: 'User' });
    await t.db.updateTable('users').set({ status: 'Blocked' }).where('id', '=', user.id).execute();
    const [right, wrong] = await Promise.all(
      ['user-password-1', 'not-the-password'].map((password) =>
        t.request({ method: 'POST', url: '/api/login', payload: { email: user.email, password } }),
      ),
    );
    expect(right!.statusCode).toBe(401);
    expect(right!.json()).toEqual({ message: msg.invalidCredentials });
    expect(wrong!.statusCode).toBe(right!.statusCode);
    expect(wrong!.json()).toEqual(right!.json());
  });
});

describe('tokens', () => {
  it('refuses a missing, forged, alg=none or edited token', async () => {
    const token = await t.adminToken();
    const [h, p, s] = token.split('.');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    const edited = `${h}.${Buffer.from('{"sub":"x","tv":0,"iat":1,"exp":9999999999}').toString('base64url')}.${s}`;
    for (const bad of [undefined, 'garbage', none, edited, `${h}.${p}.${s}x`]) {
      const res = await t.request({ method: 'GET', url: '/api/dashboard', token: bad });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toHaveProperty('message');
    }
  });

  it('refuses a token in the query string', async () => {
    const token = await t.adminToken();
    const res = await t.request({ method: 'GET', url: `/api/dashboard?token=${token}` });
    expect(res.statusCode).toBe(401);
  });
});

describe('revocation across instances', () => {
  it('ends a token on the other instance once the password changes', async () => {
    const other = await t.secondInstance();
    const admin = await t.adminToken();
    const { token } = await t.createUser(admin, { role: 'User' });
    const onOther = () =>
      other.inject({
        method: 'GET',
        url: '/api/session',
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await onOther()).statusCode).toBe(200); // now cached on the other instance
    const res = await t.request({
      method: 'PUT',
      url: '/api/users/change-password',
      token,
      payload: {
        currentPassword: 'user-password-1',
        newPassword: 'changed-pass-9',
        confirmPassword: 'changed-pass-9',
      },
    });
    expect(res.statusCode).toBe(200);
    // The NOTIFY reaches the other instance on commit; poll instead of sleeping.
    await expect.poll(async () => (await onOther()).statusCode, { timeout: 5000 }).toBe(401);
  });
});

describe('GET /api/session', () => {
  it('answers the caller, and 401 without a token', async () => {
    const admin = await t.adminToken();
    const res = await t.request({ method: 'GET', url: '/api/session', token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: ADMIN_EMAIL, role: 'Admin' });
    expect((await t.request({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
  });
});

describe('PUT /api/users/change-password', () => {
  it('changes the password, answers a fresh token and ends the old one', async () => {
    const admin = await t.adminToken();
    const { user, token } = await t.createUser(admin, { role: 'Reseller' });
    const res = await t.request({
      method: 'PUT',
      url: '/api/users/change-password',
      token,
      payload: {
        currentPassword: 'user-password-1',
        newPassword: 'changed-pass-1',
        confirmPassword: 'changed-pass-1',
      },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ message: string; token: string }>();
    expect(body.message).toBe(msg.passwordChanged);
    expect((await t.request({ method: 'GET', url: '/api/dashboard', token })).statusCode).toBe(401);
    const fresh = await t.request({ method: 'GET', url: '/api/dashboard', token: body.token });
    expect(fresh.statusCode).toBe(200);
    await expect(t.login(user.email, 'changed-pass-1')).resolves.toBeTypeOf('string');
  });

  it('refuses a wrong current password, a mismatch, and no token', async () => {
    const admin = await t.adminToken();
    const { token } = await t.createUser(admin, { role: 'User' });
    const wrong = await t.request({
      method: 'PUT',
      url: '/api/users/change-password',
      token,
      payload: {
        currentPassword: 'nope-nope',
        newPassword: 'abcdefgh1',
        confirmPassword: 'abcdefgh1',
      },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: msg.currentPasswordWrong });
    const mismatch = await t.request({
      method: 'PUT',
      url: '/api/users/change-password',
      token,
      payload: {
        currentPassword: 'user-password-1',
        newPassword: 'abcdefgh1',
        confirmPassword: 'abcdefgh2',
      },
    });
    expect(mismatch.json()).toEqual({ message: 'New passwords do not match.' });
    const anon = await t.request({ method: 'PUT', url: '/api/users/change-password', payload: {} });
    expect(anon.statusCode).toBe(401);
  });
});

describe('PUT /api/users/admin-reset-password/:id', () => {
  it('lets the Admin reset a password, ending the user’s tokens', async () => {
    const admin = await t.adminToken();
    const { user, token } = await t.createUser(admin, { role: 'User' });
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/admin-reset-password/${user.id}`,
      token: admin,
      payload: { newPassword: 'set-by-admin-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: msg.adminResetDone });
    expect((await t.request({ method: 'GET', url: '/api/dashboard', token })).statusCode).toBe(401);
    await expect(t.login(user.email, 'set-by-admin-1')).resolves.toBeTypeOf('string');
  });

  it('is Admin-only, validates, and answers 404 for unknown ids', async () => {
    const admin = await t.adminToken();
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const child = await t.createUser(reseller.token, { role: 'User' });
    const forbidden = await t.request({
      method: 'PUT',
      url: `/api/users/admin-reset-password/${child.user.id}`,
      token: reseller.token,
      payload: { newPassword: 'set-by-reseller' },
    });
    expect(forbidden.statusCode).toBe(403);
    const empty = await t.request({
      method: 'PUT',
      url: `/api/users/admin-reset-password/${child.user.id}`,
      token: admin,
      payload: { newPassword: '' },
    });
    expect(empty.statusCode).toBe(400);
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const r = await t.request({
        method: 'PUT',
        url: `/api/users/admin-reset-password/${id}`,
        token: admin,
        payload: { newPassword: 'whatever-123' },
      });
      expect(r.statusCode).toBe(404);
    }
  });
});
