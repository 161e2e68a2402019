import { RATE_LIMITS } from '@herald/contract';
import type { Limit } from '../../plugins/rate-limit.js';

export type LoginKeys = [string, Limit][];

/**
 * The login limits' counters of an account at an address (an IP, or `user:<id>` for a signed-in
 * user's own checks). Per (account, IP) pair first: its reset on success must not clear the
 * others. Passwords and two-factor codes count against the same limits.
 */
export function loginKeys(email: string, ip: string): LoginKeys {
  return [
    [`login:account-ip:${email}:${ip}`, RATE_LIMITS.loginFailuresPerAccountIp],
    [`login:account:${email}`, RATE_LIMITS.loginFailuresPerAccount],
    [`login:ip:${ip}`, RATE_LIMITS.loginFailuresPerIp],
  ];
}
