import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RATE_LIMITS,
  TWO_FACTOR_CHALLENGE_MINUTES,
  twoFactorMessages as m,
  type LoginReply,
  type TwoFactorStatus,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { issueChallenge } from './challenge.js';
import {
  awayFromStepEdge,
  challengeOf,
  codeIn,
  enrol,
  loginStep1,
  loginStep2,
} from './two-factor.test-fixtures.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

async function enrolledUser() {
  const member = await t.createUser(admin, { role: 'User' });
  return { ...member, ...(await enrol(t, member.token)) };
}

describe('sign-in with two-factor on', () => {
  it('a correct password answers a challenge, not a session; a code trades it for one', async () => {
    const { user, password, secret } = await enrolledUser();
    const step1 = await loginStep1(t, user.email, password);
    expect(step1.statusCode).toBe(200);
    const answer = step1.json<Record<string, unknown>>();
    expect(answer).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
    // The challenge is no session token.
    const asToken = await t.request({
      method: 'GET',
      url: '/api/session',
      token: answer.challenge as string,
    });
    expect(asToken.statusCode).toBe(401);

    await awayFromStepEdge();
    const step2 = await loginStep2(t, answer.challenge as string, codeIn(secret));
    expect(step2.statusCode).toBe(200);
    const { token, user: sessionUser } = step2.json<LoginReply>();
    expect(sessionUser).toMatchObject({ id: user.id, twoFactorEnabled: true });
    const session = await t.request({ method: 'GET', url: '/api/session', token });
    expect(session.statusCode).toBe(200);
  });

  it('a wrong password still answers 401 without a challenge', async () => {
    const { user } = await enrolledUser();
    const res = await loginStep1(t, user.email, 'not-the-password');
    expect(res.statusCode).toBe(401);
    expect(res.json()).not.toHaveProperty('challenge');
  });

  it('refuses a replayed code, and an earlier step once a later one was used', async () => {
    const { user, password, secret } = await enrolledUser();
    await awayFromStepEdge();
    const code = codeIn(secret);
    const first = await loginStep2(t, await challengeOf(t, user.email, password), code);
    expect(first.statusCode).toBe(200);
    const replay = await loginStep2(t, await challengeOf(t, user.email, password), code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ message: m.codeUsed });

    const next = await loginStep2(t, await challengeOf(t, user.email, password), codeIn(secret, 1));
    expect(next.statusCode).toBe(200);
    // The current step is now earlier than the last accepted one.
    const earlier = await loginStep2(t, await challengeOf(t, user.email, password), codeIn(secret));
    expect(earlier.statusCode).toBe(400);
  });

  it('the same code sent twice at once signs in once', async () => {
    const { user, password, secret } = await enrolledUser();
    const challenges = [
      await challengeOf(t, user.email, password),
      await challengeOf(t, user.email, password),
    ];
    await awayFromStepEdge();
    const code = codeIn(secret);
    const answers = await Promise.all(challenges.map((c) => loginStep2(t, c, code)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
  });

  it('a recovery code signs in once; it works in any case and with or without dashes', async () => {
    const { user, password, recoveryCodes, token } = await enrolledUser();
    const [code] = recoveryCodes as [string];
    const typed = code.replace(/-/g, ' ').toLowerCase();
    const ok = await loginStep2(t, await challengeOf(t, user.email, password), typed);
    expect(ok.statusCode).toBe(200);
    const again = await loginStep2(t, await challengeOf(t, user.email, password), code);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: m.codeWrong });
    const status = await t.request({ method: 'GET', url: '/api/two-factor', token });
    expect(status.json<TwoFactorStatus>().recoveryCodesLeft).toBe(recoveryCodes.length - 1);
    const other = await loginStep2(
      t,
      await challengeOf(t, user.email, password),
      recoveryCodes[1]!,
    );
    expect(other.statusCode).toBe(200);
  });

  it('an expired or forged challenge answers 401 with the expired message', async () => {
    const { user, secret } = await enrolledUser();
    const row = await t.db
      .selectFrom('users')
      .select('token_version')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const old = issueChallenge(
      t.app.ctx.tokens,
      user.id,
      row.token_version,
      Date.now() - (TWO_FACTOR_CHALLENGE_MINUTES * 60 + 1) * 1000,
    );
    const expired = await loginStep2(t, old, codeIn(secret));
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ message: m.challengeExpired });
    const genuine = issueChallenge(t.app.ctx.tokens, user.id, row.token_version);
    const [payload, mac] = genuine.split('.') as [string, string];
    const forged = `${payload}.${mac.slice(0, -2)}AA`;
    expect((await loginStep2(t, forged, codeIn(secret))).statusCode).toBe(401);
    expect((await loginStep2(t, 'not.a-challenge', codeIn(secret))).statusCode).toBe(401);
  });

  it('a password change in between voids the challenge (token version)', async () => {
    const { user, password, secret, token } = await enrolledUser();
    const challenge = await challengeOf(t, user.email, password);
    const changed = await t.request({
      method: 'PUT',
      url: '/api/users/change-password',
      token,
      payload: {
        currentPassword: password,
        newPassword: 'a-new-password-9',
        confirmPassword: 'a-new-password-9',
      },
    });
    expect(changed.statusCode).toBe(200);
    const res = await loginStep2(t, challenge, codeIn(secret));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: m.challengeExpired });
  });
});

describe('code limits', () => {
  it('wrong codes count against the login limits of the account at the address', async () => {
    const { user, password, secret } = await enrolledUser();
    const ip = '10.78.0.1';
    const { max } = RATE_LIMITS.loginFailuresPerAccountIp;
    for (let i = 0; i < max; i++) {
      // A new correct password between guesses does not clear the count of wrong codes.
      const challenge = await challengeOf(t, user.email, password, ip);
      expect((await loginStep2(t, challenge, codeIn(secret, 7), ip)).statusCode).toBe(400);
    }
    // Both steps share the limits: the address is refused its password and its codes alike.
    const refused = await loginStep1(t, user.email, password, ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const row = await t.db
      .selectFrom('users')
      .select('token_version')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const challenge = issueChallenge(t.app.ctx.tokens, user.id, row.token_version);
    expect((await loginStep2(t, challenge, codeIn(secret), ip)).statusCode).toBe(429);
    // Another address of the owner still signs in.
    await awayFromStepEdge();
    const owner = await loginStep2(
      t,
      await challengeOf(t, user.email, password, '10.78.0.2'),
      codeIn(secret),
      '10.78.0.2',
    );
    expect(owner.statusCode).toBe(200);
  });
});
