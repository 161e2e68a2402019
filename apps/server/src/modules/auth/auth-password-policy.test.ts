import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_TOO_COMMON, server as msg, type LoginReply } from '@herald/contract';
import { DEFAULT_PASSWORD, createTestApp, type TestApp } from '../../../test/harness.js';

/** On the list (case-insensitively) and long enough for the length rule. */
const COMMON = ['password123', 'Password123', 'QWERTY123', 'iloveyou1'];
/** Not on the list. */
const STRONG = 'violet-anchor-meadow-42';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function otpFromLastMail(to: string): string {
  const mail = [...t.mails].reverse().find((m) => m.to === to);
  const otp = /code to reset your Herald password is (\d{6})/.exec(mail?.text ?? '')?.[1];
  if (!otp) throw new Error(`no OTP mail for ${to}`);
  return otp;
}

async function askCode(email: string): Promise<string> {
  await t.request({ method: 'POST', url: '/api/forgot-password', payload: { email } });
  return otpFromLastMail(email);
}

function changePassword(token: string, currentPassword: string, newPassword: string) {
  return t.request({
    method: 'PUT',
    url: '/api/users/change-password',
    token,
    payload: { currentPassword, newPassword, confirmPassword: newPassword },
  });
}

function adminReset(admin: string, id: string, newPassword: string) {
  return t.request({
    method: 'PUT',
    url: `/api/users/admin-reset-password/${id}`,
    token: admin,
    payload: { newPassword },
  });
}

async function loginReply(email: string, password: string): Promise<LoginReply> {
  const res = await t.request({ method: 'POST', url: '/api/login', payload: { email, password } });
  expect(res.statusCode).toBe(200);
  return res.json<LoginReply>();
}

describe('common passwords are refused wherever a password is set', () => {
  const refused = { message: PASSWORD_TOO_COMMON };

  it('change password', async () => {
    const { token } = await t.createUser(await t.adminToken(), { role: 'User' });
    for (const pw of COMMON) {
      const res = await changePassword(token, DEFAULT_PASSWORD, pw);
      expect(res.statusCode, pw).toBe(400);
      expect(res.json()).toEqual(refused);
    }
    expect((await changePassword(token, DEFAULT_PASSWORD, STRONG)).statusCode).toBe(200);
  });

  it('reset password with an emailed code', async () => {
    const { user } = await t.createUser(await t.adminToken(), { role: 'User' });
    const otp = await askCode(user.email);
    const common = await t.request({
      method: 'POST',
      url: '/api/reset-password',
      payload: { email: user.email, otp, newPassword: 'password123' },
    });
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual(refused);
    // Refused before the code is looked at: the same code still works.
    const ok = await t.request({
      method: 'POST',
      url: '/api/reset-password',
      payload: { email: user.email, otp, newPassword: STRONG },
    });
    expect(ok.statusCode).toBe(200);
    await expect(t.login(user.email, STRONG)).resolves.toBeTypeOf('string');
  });

  it('admin reset password', async () => {
    const admin = await t.adminToken();
    const { user } = await t.createUser(admin, { role: 'User' });
    const res = await adminReset(admin, user.id, 'Password123');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refused);
    expect((await adminReset(admin, user.id, STRONG)).statusCode).toBe(200);
  });

  it('Add User with a password; a generated password is fine', async () => {
    const admin = await t.adminToken();
    const add = (email: string, password?: string) =>
      t.request({
        method: 'POST',
        url: '/api/users',
        token: admin,
        payload: { name: 'Common Pw', email, role: 'User', password },
      });
    const common = await add('common-pw@test.local', 'password123');
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual(refused);
    expect((await add('strong-pw@test.local', STRONG)).statusCode).toBe(201);
    expect((await add('generated-pw@test.local')).statusCode).toBe(201);
  });

  it('does not apply to login: an existing password still logs in', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'nobody@test.local', password: 'password123' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('a password an Admin reset must be changed at the next login', () => {
  async function resetByAdmin() {
    const admin = await t.adminToken();
    const { user } = await t.createUser(admin, { role: 'Reseller' });
    expect((await adminReset(admin, user.id, 'set-by-admin-77')).statusCode).toBe(200);
    return user;
  }

  it('logs in with the flag, and only the allowed routes answer until the change', async () => {
    const user = await resetByAdmin();
    const reply = await loginReply(user.email, 'set-by-admin-77');
    expect(reply.user.mustChangePassword).toBe(true);
    const { token } = reply;

    for (const url of ['/api/dashboard', '/api/users', '/api/campaigns', '/api/credits/balances']) {
      const res = await t.request({ method: 'GET', url, token });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ message: msg.passwordChangeRequired });
    }
    const session = await t.request({ method: 'GET', url: '/api/session', token });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ email: user.email, mustChangePassword: true });
    const branding = await t.request({ method: 'GET', url: '/api/whitelabel/my-branding', token });
    expect(branding.statusCode).toBe(200);

    const changed = await changePassword(token, 'set-by-admin-77', STRONG);
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json<{ token: string }>().token;
    expect(
      (await t.request({ method: 'GET', url: '/api/dashboard', token: fresh })).statusCode,
    ).toBe(200);
    const after = await t.request({ method: 'GET', url: '/api/session', token: fresh });
    expect(after.json()).toMatchObject({ mustChangePassword: false });
    expect((await loginReply(user.email, STRONG)).user.mustChangePassword).toBe(false);
  });

  it('a reset with an emailed code clears the flag too', async () => {
    const user = await resetByAdmin();
    const otp = await askCode(user.email);
    const res = await t.request({
      method: 'POST',
      url: '/api/reset-password',
      payload: { email: user.email, otp, newPassword: STRONG },
    });
    expect(res.statusCode).toBe(200);
    const { token, user: me } = await loginReply(user.email, STRONG);
    expect(me.mustChangePassword).toBe(false);
    expect((await t.request({ method: 'GET', url: '/api/dashboard', token })).statusCode).toBe(200);
  });

  it('a user who never had an Admin reset is not held', async () => {
    const { user, token } = await t.createUser(await t.adminToken(), { role: 'User' });
    expect((await loginReply(user.email, DEFAULT_PASSWORD)).user.mustChangePassword).toBe(false);
    expect((await t.request({ method: 'GET', url: '/api/dashboard', token })).statusCode).toBe(200);
  });
});
