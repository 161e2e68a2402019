import type { Role } from './roles.js';

/**
 * Two-factor sign-in (docs/product.md, Two-factor sign-in): time-based codes per RFC 6238 from
 * an authenticator app, and one-time recovery codes for a lost phone.
 */
export const TWO_FACTOR_DIGITS = 6;
export const TWO_FACTOR_PERIOD_SECONDS = 30;
/** Codes of this many time steps before and after the current one are accepted (clock drift). */
export const TWO_FACTOR_WINDOW = 1;
/** How long the answer to a correct password may be traded for a session with a code. */
export const TWO_FACTOR_CHALLENGE_MINUTES = 5;
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code: 16 characters of the RFC 4648 base32 alphabet (80 random bits). */
export const RECOVERY_CODE_LENGTH = 16;
/** The roles the Admin's "require two-factor sign-in" setting applies to. */
export const TWO_FACTOR_REQUIRED_ROLES: readonly Role[] = ['Admin', 'Reseller'];

/** A code as typed: spaces and dashes dropped, letters upper-cased (recovery codes). */
export function normalizeTwoFactorCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/** True for a six-digit authenticator code (after normalizing); anything else is a recovery code. */
export function isAuthenticatorCode(code: string): boolean {
  return new RegExp(`^\\d{${TWO_FACTOR_DIGITS}}$`).test(code);
}

/** Whether the required setting holds this role to two-factor sign-in. */
export function twoFactorRequiredFor(role: Role, requireSetting: boolean): boolean {
  return requireSetting && TWO_FACTOR_REQUIRED_ROLES.includes(role);
}
