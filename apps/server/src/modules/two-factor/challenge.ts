import { timingSafeEqual } from 'node:crypto';
import { TWO_FACTOR_CHALLENGE_MINUTES } from '@herald/contract';
import type { TokenService } from '../../lib/tokens.js';

/**
 * The answer to a correct password when two-factor sign-in is on: `payload.mac`, the payload
 * naming the user, its token version and an expiry minutes away, the MAC keyed with the server
 * secret under its own label. It is no session token (those have three parts and another
 * signature) and needs no row: every instance checks it alike. A password change or a block
 * raises the token version, which voids it.
 */
const LABEL = 'two-factor-challenge';

export interface ChallengeClaims {
  sub: string;
  tv: number;
}

function macOf(tokens: TokenService, payload: string): Buffer {
  return Buffer.from(tokens.mac(`${LABEL}:${payload}`), 'base64url');
}

export function issueChallenge(
  tokens: TokenService,
  userId: string,
  tokenVersion: number,
  now = Date.now(),
): string {
  const exp = Math.floor(now / 1000) + TWO_FACTOR_CHALLENGE_MINUTES * 60;
  const payload = Buffer.from(JSON.stringify({ sub: userId, tv: tokenVersion, exp })).toString(
    'base64url',
  );
  return `${payload}.${macOf(tokens, payload).toString('base64url')}`;
}

/** The claims of a genuine, unexpired challenge; null for anything else. */
export function readChallenge(
  tokens: TokenService,
  challenge: string,
  now = Date.now(),
): ChallengeClaims | null {
  const parts = challenge.split('.');
  if (parts.length !== 2) return null;
  const [payload, mac] = parts as [string, string];
  const given = Buffer.from(mac, 'base64url');
  const expected = macOf(tokens, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!claims || typeof claims !== 'object') return null;
  const { sub, tv, exp } = claims as Record<string, unknown>;
  if (typeof sub !== 'string' || !Number.isInteger(tv) || !Number.isInteger(exp)) return null;
  if ((exp as number) * 1000 <= now) return null;
  return { sub, tv: tv as number };
}
