import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import {
  TWO_FACTOR_PERIOD_SECONDS,
  type LoginAnswer,
  type RecoveryCodesReply,
  type TwoFactorSetupReply,
} from '@herald/contract';
import type { TestApp } from '../../../test/harness.js';
import { codeAt } from './totp.js';

/** Test-only helpers of two-factor sign-in. */

const PERIOD_MS = TWO_FACTOR_PERIOD_SECONDS * 1000;

/**
 * Waits out the last two seconds of a time step, so a code made now is still of the same step
 * when the server checks it.
 */
export async function awayFromStepEdge(): Promise<void> {
  const left = PERIOD_MS - (Date.now() % PERIOD_MS);
  if (left < 2000) await sleep(left + 50);
}

/** The code `steps` time steps from now (within the accepted drift for -1, 0 and 1). */
export function codeIn(secret: string, steps = 0): string {
  return codeAt(secret, Date.now() + steps * PERIOD_MS);
}

/** Forgets the last accepted step, so a test may use the current step's code once more. */
export async function forgetLastStep(t: TestApp, userId: string): Promise<void> {
  await t.db
    .updateTable('users')
    .set({ two_factor_last_step: null })
    .where('id', '=', userId)
    .execute();
}

/** Enrols the token's user with the previous step's code; the secret and recovery codes. */
export async function enrol(
  t: TestApp,
  token: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await t.request({ method: 'POST', url: '/api/two-factor/setup', token });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<TwoFactorSetupReply>();
  await awayFromStepEdge();
  const confirm = await t.request({
    method: 'POST',
    url: '/api/two-factor/confirm',
    token,
    payload: { code: codeIn(secret, -1) },
  });
  expect(confirm.statusCode).toBe(200);
  return { secret, recoveryCodes: confirm.json<RecoveryCodesReply>().recoveryCodes };
}

export function loginStep1(t: TestApp, email: string, password: string, ip = '10.77.0.1') {
  return t.request({
    method: 'POST',
    url: '/api/login',
    payload: { email, password },
    remoteAddress: ip,
  });
}

/** The challenge of a correct password for an account with two-factor sign-in on. */
export async function challengeOf(t: TestApp, email: string, password: string, ip?: string) {
  const res = await loginStep1(t, email, password, ip);
  expect(res.statusCode).toBe(200);
  const answer = res.json<LoginAnswer>();
  if (!('challenge' in answer)) throw new Error('expected a two-factor challenge');
  return answer.challenge;
}

export function loginStep2(t: TestApp, challenge: string, code: string, ip = '10.77.0.1') {
  return t.request({
    method: 'POST',
    url: '/api/login/two-factor',
    payload: { challenge, code },
    remoteAddress: ip,
  });
}
