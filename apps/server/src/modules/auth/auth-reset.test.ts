import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS, server as msg } from '@herald/contract';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';

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

/** A new User who asked for a reset code, and the code the mail carried. */
async function userWithCode() {
  const { user } = await t.createUser(await t.adminToken(), { role: 'User' });
  await t.request({ method: 'POST', url: '/api/forgot-password', payload: { email: user.email } });
  return { user, otp: otpFromLastMail(user.email) };
}

describe('forgot and reset password', () => {
  it('answers the same for unknown and known emails, mailing only the known one', async () => {
    const admin = await t.adminToken();
    const { user } = await t.createUser(admin, { role: 'User' });
    const before = t.mails.length;
    const unknown = await t.request({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: 'ghost@test.local' },
    });
    expect(t.mails.length).toBe(before);
    const known = await t.request({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: user.email },
    });
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(t.mails.length).toBe(before + 1);
    const stored = await t.db
      .selectFrom('password_resets')
      .select('otp_hash')
      .executeTakeFirstOrThrow();
    expect(stored.otp_hash).not.toContain(otpFromLastMail(user.email));
  });

  it('resets with the OTP once, ends old tokens, and the new password logs in', async () => {
    const admin = await t.adminToken();
    const { user, token } = await t.createUser(admin, { role: 'User' });
    await t.request({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: user.email },
    });
    const otp = otpFromLastMail(user.email);
    const ok = await t.request({
      method: 'POST',
      url: '/api/reset-password',
      payload: { email: user.email, otp, newPassword: 'brand-new-pass-1' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: msg.passwordReset });
    const again = await t.request({
      method: 'POST',
      url: '/api/reset-password',
      payload: { email: user.email, otp, newPassword: 'brand-new-pass-2' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: msg.otpInvalid });
    const old = await t.request({ method: 'GET', url: '/api/dashboard', token });
    expect(old.statusCode).toBe(401);
    await expect(t.login(user.email, 'brand-new-pass-1')).resolves.toBeTypeOf('string');
  });

  it('invalidates the OTP after five wrong guesses and when a newer one is sent', async () => {
    const { user, otp } = await userWithCode();
    const wrong = otp === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await t.request({
        method: 'POST',
        url: '/api/reset-password',
        payload: { email: user.email, otp: wrong, newPassword: 'brand-new-pass-1' },
      });
      expect(r.statusCode).toBe(400);
    }
    const right = await t.request({
      method: 'POST',
      url: '/api/reset-password',
      payload: { email: user.email, otp, newPassword: 'brand-new-pass-1' },
    });
    expect(right.statusCode).toBe(400);

    await t.request({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: user.email },
    });
    const first = otpFromLastMail(user.email);
    await t.request({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: user.email },
    });
    const stale = await t.request({
      method: 'POST',
      url: '/api/reset-password',
      payload: { email: user.email, otp: first, newPassword: 'brand-new-pass-1' },
    });
    const second = otpFromLastMail(user.email);
    expect(stale.statusCode).toBe(first === second ? 200 : 400);
  });

  it('keeps at most one code open when forgot-password requests arrive at once', async () => {
    const admin = await t.adminToken();
    const { user } = await t.createUser(admin, { role: 'User' });
    const { max } = RATE_LIMITS.forgotPerAccountIp;
    for (let round = 0; round < 3; round++) {
      await t.db.deleteFrom('rate_limits').where('key', 'like', 'forgot:%').execute();
      await Promise.all(
        Array.from({ length: max }, (_, i) =>
          t.request({
            method: 'POST',
            url: '/api/forgot-password',
            payload: { email: user.email },
            remoteAddress: `10.8.${round}.${i + 1}`,
          }),
        ),
      );
      const open = await t.db
        .selectFrom('password_resets')
        .select('id')
        .where('user_id', '=', user.id)
        .where('used_at', 'is', null)
        .execute();
      expect(open).toHaveLength(1);
    }
  });

  it('answers a known and an unknown email in about the same time', async () => {
    const admin = await t.adminToken();
    const { user } = await t.createUser(admin, { role: 'User' });
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    // Interleaved, so a burst of noise on the shared machine weighs on both kinds alike.
    for (let i = 0; i < 20; i++) {
      for (const kind of ['known', 'unknown'] as const) {
        await t.db.deleteFrom('rate_limits').where('key', 'like', 'forgot:%').execute();
        const email = kind === 'known' ? user.email : `nobody-${i}@test.local`;
        const start = performance.now();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/forgot-password',
          payload: { email },
        });
        times[kind].push(performance.now() - start);
        expect(res.statusCode).toBe(200);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const [known, unknown] = [median(times.known), median(times.unknown)];
    expect(Math.abs(known - unknown) / Math.min(known, unknown)).toBeLessThan(0.2);
  });

  it('refuses an expired OTP', async () => {
    const { user, otp } = await userWithCode();
    await t.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .execute();
    const res = await t.request({
      method: 'POST',
      url: '/api/reset-password',
      payload: { email: user.email, otp, newPassword: 'brand-new-pass-1' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('validates the OTP format and the password length', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/reset-password',
      payload: { email: ADMIN_EMAIL, otp: '12ab', newPassword: 'long-enough-1' },
    });
    expect(res.json()).toEqual({ message: 'The OTP is 6 digits.' });
    const short = await t.request({
      method: 'POST',
      url: '/api/reset-password',
      payload: { email: ADMIN_EMAIL, otp: '123456', newPassword: 'short' },
    });
    expect(short.json()).toEqual({ message: 'Password must be at least 8 characters.' });
  });
});
