import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import {
  RECOVERY_CODE_COUNT,
  TWO_FACTOR_DIGITS,
  TWO_FACTOR_PERIOD_SECONDS,
  TWO_FACTOR_WINDOW,
  normalizeTwoFactorCode,
} from '@herald/contract';

/**
 * RFC 6238 codes (SHA-1, 6 digits, 30 s: what every authenticator app reads from an otpauth
 * URI) through the otpauth library, the QR code through qrcode, and recovery codes.
 */

/** A new secret of 160 bits (RFC 4226's recommended size), in base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, issuer = '', label = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TWO_FACTOR_DIGITS,
    period: TWO_FACTOR_PERIOD_SECONDS,
  });
}

/** The otpauth:// URI an authenticator app scans. */
export function otpauthUri(secret: string, issuer: string, account: string): string {
  return totpOf(secret, issuer, account).toString();
}

/** The URI as a QR code: an SVG data URL, shown as an image under the strict CSP. */
export async function qrCodeDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * The time step a code belongs to, within the allowed drift of `now`; null for a wrong code.
 * The caller refuses a step not after the last one accepted (no replay).
 */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  const totp = totpOf(secret);
  const delta = totp.validate({ token: code, timestamp: now, window: TWO_FACTOR_WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

/** The code of a step (tests, and the e2e's stand-in for an app). */
export function codeAt(secret: string, timestamp: number): string {
  return totpOf(secret).generate({ timestamp });
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** 16 base32 characters of 80 random bits, shown in groups of four. */
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{4}/g)!.join('-');
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

/** What is stored of a recovery code: the SHA-256 of it as typed, spaces and dashes dropped. */
export function recoveryCodeHash(code: string): Buffer {
  return createHash('sha256').update(normalizeTwoFactorCode(code)).digest();
}
