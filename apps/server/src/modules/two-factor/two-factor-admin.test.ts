import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  server as msg,
  twoFactorMessages as m,
  type LoginAnswer,
  type LoginReply,
  type SecuritySettings,
  type SessionUser,
  type User,
} from '@herald/contract';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../../../test/harness.js';
import {
  awayFromStepEdge,
  challengeOf,
  codeIn,
  enrol,
  loginStep2,
} from './two-factor.test-fixtures.js';

let t: TestApp;
let admin: string;
let adminSecret: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

/** A fresh Admin session: the enrolled Admin signs in with a code of the next step. */
async function adminSession(): Promise<string> {
  await t.db
    .updateTable('users')
    .set({ two_factor_last_step: null })
    .where('email', '=', ADMIN_EMAIL)
    .execute();
  await awayFromStepEdge();
  const res = await loginStep2(
    t,
    await challengeOf(t, ADMIN_EMAIL, ADMIN_PASSWORD),
    codeIn(adminSecret),
  );
  expect(res.statusCode).toBe(200);
  return res.json<LoginReply>().token;
}

const setRequired = (token: string, requireTwoFactor: boolean) =>
  t.request({ method: 'PUT', url: '/api/settings/security', token, payload: { requireTwoFactor } });

describe('the Admin setting: two-factor sign-in required for Admins and Resellers', () => {
  it('is the Admin’s alone, and needs the Admin’s own two-factor sign-in to turn on', async () => {
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    expect((await setRequired(reseller.token, true)).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'GET', url: '/api/settings/security', token: reseller.token }))
        .statusCode,
    ).toBe(403);
    const refused = await setRequired(admin, true);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: m.settingNeedsOwn });
    // The Admin enrols; the later tests turn the setting on with this session.
    adminSecret = (await enrol(t, admin)).secret;
    const bad = await t.request({
      method: 'PUT',
      url: '/api/settings/security',
      token: admin,
      payload: { requireTwoFactor: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    const get = await t.request({ method: 'GET', url: '/api/settings/security', token: admin });
    expect(get.json<SecuritySettings>()).toEqual({
      requireTwoFactor: false,
      auditRetentionDays: 400,
    });
  });

  it('holds a Reseller without it to the enrolment, on open sessions too; a User or Sub-Reseller is not held', async () => {
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const sub = await t.createUser(reseller.token, { role: 'Sub-Reseller' });
    const user = await t.createUser(admin, { role: 'User' });
    const set = await setRequired(admin, true);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ requireTwoFactor: true, auditRetentionDays: 400 });

    // The session made before the setting is held at once (every cached caller is forgotten).
    const blocked = await t.request({ method: 'GET', url: '/api/users', token: reseller.token });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ message: m.enrolRequired });
    const session = await t.request({ method: 'GET', url: '/api/session', token: reseller.token });
    expect(session.statusCode).toBe(200);
    expect(session.json<SessionUser>().mustEnrolTwoFactor).toBe(true);
    const branding = await t.request({
      method: 'GET',
      url: '/api/whitelabel/my-branding',
      token: reseller.token,
    });
    expect(branding.statusCode).toBe(200);

    // A new login after the password says so, and is held the same way.
    const login = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: reseller.user.email, password: reseller.password },
    });
    const fresh = login.json<LoginReply>();
    expect(fresh.user.mustEnrolTwoFactor).toBe(true);
    expect(
      (await t.request({ method: 'GET', url: '/api/campaigns', token: fresh.token })).statusCode,
    ).toBe(403);

    for (const free of [sub, user]) {
      const res = await t.request({ method: 'GET', url: '/api/session', token: free.token });
      expect(res.json<SessionUser>().mustEnrolTwoFactor).toBe(false);
      expect(
        (await t.request({ method: 'GET', url: '/api/history', token: free.token })).statusCode,
      ).not.toBe(403);
    }

    // Enrolling frees the Reseller; it may not then turn it off while it is required.
    const { secret } = await enrol(t, fresh.token);
    expect(
      (await t.request({ method: 'GET', url: '/api/users', token: fresh.token })).statusCode,
    ).toBe(200);
    const off = await t.request({
      method: 'POST',
      url: '/api/two-factor/disable',
      token: fresh.token,
      payload: { password: reseller.password, code: codeIn(secret, 1) },
    });
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({ message: m.cannotTurnOffRequired });

    // Turned off again, the Admins and Resellers left without it are free.
    const another = await t.createUser(admin, { role: 'Reseller' });
    expect(
      (await t.request({ method: 'GET', url: '/api/users', token: another.token })).statusCode,
    ).toBe(403);
    expect((await setRequired(admin, false)).statusCode).toBe(200);
    expect(
      (await t.request({ method: 'GET', url: '/api/users', token: another.token })).statusCode,
    ).toBe(200);
  });

  it('reaches a second instance at once: its cached callers are held too', async () => {
    const other = await t.secondInstance();
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const get = () =>
      other.inject({
        method: 'GET',
        url: '/api/users',
        headers: { authorization: `Bearer ${reseller.token}` },
      });
    // The second instance has the Reseller cached before the change.
    expect((await get()).statusCode).toBe(200);
    expect((await setRequired(admin, true)).statusCode).toBe(200);
    await expect.poll(async () => (await get()).statusCode, { timeout: 5000 }).toBe(403);
    expect((await setRequired(admin, false)).statusCode).toBe(200);
    await expect.poll(async () => (await get()).statusCode, { timeout: 5000 }).toBe(200);
  });

  it('a password change an Admin asked for comes first, then the enrolment', async () => {
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    await t.request({
      method: 'PUT',
      url: `/api/users/admin-reset-password/${reseller.user.id}`,
      token: admin,
      payload: { newPassword: 'reset-by-admin-1' },
    });
    expect((await setRequired(admin, true)).statusCode).toBe(200);
    const token = await t.login(reseller.user.email, 'reset-by-admin-1');
    const setup = await t.request({ method: 'POST', url: '/api/two-factor/setup', token });
    expect(setup.statusCode).toBe(403);
    expect(setup.json()).toEqual({ message: msg.passwordChangeRequired });
    expect((await setRequired(admin, false)).statusCode).toBe(200);
  });
});

describe('the Admin resets a user’s two-factor sign-in', () => {
  it('turns it off, ends the user’s sessions and API keys, and tells the user by mail', async () => {
    const member = await t.createUser(admin, { role: 'User' });
    await enrol(t, member.token);
    const key = await t.request({
      method: 'POST',
      url: '/api/api-keys',
      token: member.token,
      payload: { name: 'k', kind: 'live' },
    });
    const apiKey = key.json<{ secret: string }>().secret;
    const listed = await t.request({
      method: 'GET',
      url: `/api/users/profile/${member.user.id}`,
      token: admin,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ user: User }>().user.twoFactorEnabled).toBe(true);

    const mails = t.mails.length;
    const res = await t.request({
      method: 'DELETE',
      url: `/api/users/${member.user.id}/two-factor`,
      token: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: m.resetDone });
    expect(t.mails.slice(mails).map((mail) => mail.to)).toEqual([member.user.email]);
    expect(
      (await t.request({ method: 'GET', url: '/api/session', token: member.token })).statusCode,
    ).toBe(401);
    expect(
      (await t.request({ method: 'GET', url: '/api/session', token: apiKey })).statusCode,
    ).toBe(401);
    const login = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: member.user.email, password: member.password },
    });
    expect(login.json<LoginAnswer>()).toHaveProperty('token');
    const again = await t.request({
      method: 'DELETE',
      url: `/api/users/${member.user.id}/two-factor`,
      token: admin,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: m.resetNotOn });
  });

  it('is the Admin’s alone, not for the Admin’s own account, and 404 for an unknown id', async () => {
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const user = await t.createUser(reseller.token, { role: 'User' });
    await enrol(t, user.token);
    const byReseller = await t.request({
      method: 'DELETE',
      url: `/api/users/${user.user.id}/two-factor`,
      token: reseller.token,
    });
    expect(byReseller.statusCode).toBe(403);
    const session = await adminSession();
    const me = await t.request({ method: 'GET', url: '/api/session', token: session });
    const self = await t.request({
      method: 'DELETE',
      url: `/api/users/${me.json<SessionUser>().id}/two-factor`,
      token: session,
    });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ message: m.resetSelf });
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await t.request({
        method: 'DELETE',
        url: `/api/users/${id}/two-factor`,
        token: session,
      });
      expect(res.statusCode).toBe(404);
    }
  });
});
