import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RECOVERY_CODE_COUNT,
  twoFactorMessages as m,
  type LoginAnswer,
  type RecoveryCodesReply,
  type SessionUser,
  type TwoFactorSetupReply,
  type TwoFactorStatus,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { awayFromStepEdge, codeIn, enrol, forgetLastStep } from './two-factor.test-fixtures.js';
import { recoveryCodeHash } from './totp.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const status = async (token: string) => {
  const res = await t.request({ method: 'GET', url: '/api/two-factor', token });
  expect(res.statusCode).toBe(200);
  return res.json<TwoFactorStatus>();
};

describe('enrolment', () => {
  it('shows a secret, its otpauth URI and a QR code; a first code turns it on with 10 recovery codes', async () => {
    const { user, token, password } = await t.createUser(admin, { role: 'User' });
    expect(await status(token)).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });

    const setup = await t.request({ method: 'POST', url: '/api/two-factor/setup', token });
    expect(setup.statusCode).toBe(200);
    const body = setup.json<TwoFactorSetupReply>();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(body.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(body.secret);
    expect(uri.searchParams.get('issuer')).toBe('Herald');
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);
    expect(body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(body.qrCode.split(',')[1]!, 'base64').toString('utf8');
    expect(svg).toContain('<svg');

    // Not on until confirmed: the password alone still signs in.
    const before = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password },
    });
    expect(before.json<LoginAnswer>()).toHaveProperty('token');

    await awayFromStepEdge();
    const wrong = await t.request({
      method: 'POST',
      url: '/api/two-factor/confirm',
      token,
      payload: { code: codeIn(body.secret, 5) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: m.codeWrong });

    const ok = await t.request({
      method: 'POST',
      url: '/api/two-factor/confirm',
      token,
      payload: { code: codeIn(body.secret) },
    });
    expect(ok.statusCode).toBe(200);
    const { recoveryCodes, message } = ok.json<RecoveryCodesReply>();
    expect(message).toBe(m.enabled);
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
    expect(await status(token)).toEqual({
      enabled: true,
      recoveryCodesLeft: RECOVERY_CODE_COUNT,
      required: false,
    });
    const session = await t.request({ method: 'GET', url: '/api/session', token });
    expect(session.json<SessionUser>().twoFactorEnabled).toBe(true);

    // A second confirm or set-up of an account that has it on is refused.
    const again = await t.request({ method: 'POST', url: '/api/two-factor/setup', token });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: m.alreadyOn });
  });

  it('keeps the secret sealed and the recovery codes hashed, never in the clear', async () => {
    const { user, token } = await t.createUser(admin, { role: 'User' });
    const { secret, recoveryCodes } = await enrol(t, token);
    const row = await t.db
      .selectFrom('users')
      .select(['two_factor_secret', 'two_factor_pending_secret'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.two_factor_secret).toMatch(/^v1\./);
    expect(row.two_factor_secret).not.toContain(secret);
    expect(row.two_factor_pending_secret).toBeNull();
    const hashes = await t.db
      .selectFrom('two_factor_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(hashes.map((h) => h.code_hash.toString('hex')).sort()).toEqual(
      recoveryCodes.map((c) => recoveryCodeHash(c).toString('hex')).sort(),
    );
  });

  it('confirm without a started set-up asks to start again', async () => {
    const { token } = await t.createUser(admin, { role: 'User' });
    const res = await t.request({
      method: 'POST',
      url: '/api/two-factor/confirm',
      token,
      payload: { code: '123456' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: m.setupMissing });
  });

  it('answers 400 to a code that is not six digits, and 401 without a session', async () => {
    const { token } = await t.createUser(admin, { role: 'User' });
    const bad = await t.request({
      method: 'POST',
      url: '/api/two-factor/confirm',
      token,
      payload: { code: '12ab' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: m.codeDigits });
    expect((await t.request({ method: 'POST', url: '/api/two-factor/setup' })).statusCode).toBe(
      401,
    );
  });
});

describe('turning it off and new recovery codes', () => {
  it('turning off needs the password and a code', async () => {
    const { user, token, password } = await t.createUser(admin, { role: 'User' });
    const { secret } = await enrol(t, token);
    const off = (body: object) =>
      t.request({ method: 'POST', url: '/api/two-factor/disable', token, payload: body });

    const wrongPassword = await off({ password: 'not-it', code: codeIn(secret) });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toEqual({ message: m.passwordWrong });
    const wrongCode = await off({ password, code: codeIn(secret, 5) });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json()).toEqual({ message: m.codeWrong });

    const ok = await off({ password, code: codeIn(secret) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: m.disabled });
    expect(await status(token)).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });
    const left = await t.db
      .selectFrom('two_factor_recovery_codes')
      .select('user_id')
      .where('user_id', '=', user.id)
      .execute();
    expect(left).toEqual([]);
    const login = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password },
    });
    expect(login.json<LoginAnswer>()).toHaveProperty('token');
  });

  it('new recovery codes replace the old ones, for an authenticator code only', async () => {
    const { user, token } = await t.createUser(admin, { role: 'User' });
    const { secret, recoveryCodes } = await enrol(t, token);
    const regen = (code: string) =>
      t.request({
        method: 'POST',
        url: '/api/two-factor/recovery-codes',
        token,
        payload: { code },
      });
    expect((await regen(recoveryCodes[0]!)).statusCode).toBe(400);
    const ok = await regen(codeIn(secret));
    expect(ok.statusCode).toBe(200);
    const fresh = ok.json<RecoveryCodesReply>().recoveryCodes;
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
    expect(fresh.filter((c) => recoveryCodes.includes(c))).toEqual([]);
    const stored = await t.db
      .selectFrom('two_factor_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(stored.map((h) => h.code_hash.toString('hex')).sort()).toEqual(
      fresh.map((c) => recoveryCodeHash(c).toString('hex')).sort(),
    );
    // The same authenticator code is not taken twice.
    await forgetLastStep(t, user.id);
    expect((await regen(codeIn(secret))).statusCode).toBe(200);
    const replay = await regen(codeIn(secret));
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ message: m.codeUsed });
  });

  it('is refused with an API key: managing two-factor needs a signed-in session', async () => {
    const { token } = await t.createUser(admin, { role: 'User' });
    const created = await t.request({
      method: 'POST',
      url: '/api/api-keys',
      token,
      payload: { name: 'k', kind: 'live' },
    });
    expect(created.statusCode).toBe(201);
    const key = created.json<{ secret: string }>().secret;
    const res = await t.request({ method: 'POST', url: '/api/two-factor/setup', token: key });
    expect(res.statusCode).toBe(403);
  });
});
