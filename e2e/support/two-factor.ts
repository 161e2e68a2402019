import { setTimeout as sleep } from 'node:timers/promises';
import { Secret, TOTP } from 'otpauth';
import {
  TWO_FACTOR_DIGITS,
  TWO_FACTOR_PERIOD_SECONDS,
  type RecoveryCodesReply,
  type TwoFactorSetupReply,
} from '@herald/contract';
import { apiJson } from './browser.js';

/** The e2e's stand-in for an authenticator app: RFC 6238 codes of a secret the screen showed. */

const PERIOD_MS = TWO_FACTOR_PERIOD_SECONDS * 1000;

/** The code `steps` time steps from now (the server takes -1, 0 and +1). */
export function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({
    secret: Secret.fromBase32(secret),
    digits: TWO_FACTOR_DIGITS,
    period: TWO_FACTOR_PERIOD_SECONDS,
  });
  return totp.generate({ timestamp: Date.now() + steps * PERIOD_MS });
}

/** Waits out the last three seconds of a step, so a code typed now is checked in its step. */
export async function awayFromStepEdge(): Promise<void> {
  const left = PERIOD_MS - (Date.now() % PERIOD_MS);
  if (left < 3000) await sleep(left + 100);
}

/** Turns two-factor sign-in on for the token's user through the API, with the previous step's code. */
export async function apiEnrolTwoFactor(
  token: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = await apiJson<TwoFactorSetupReply>('POST', '/api/two-factor/setup', token);
  await awayFromStepEdge();
  const { recoveryCodes } = await apiJson<RecoveryCodesReply>(
    'POST',
    '/api/two-factor/confirm',
    token,
    { code: totpCode(secret, -1) },
  );
  return { secret, recoveryCodes };
}
