import { ROLES, USER_STATUSES } from './roles.js';
import type { SessionUser } from './schemas/auth.js';

/**
 * Checks a stored session user without zod, so the web app's first screen does not load the
 * schema library (SessionUserSchema describes the same shape on the server).
 */
export function isSessionUser(v: unknown): v is SessionUser {
  if (!v || typeof v !== 'object') return false;
  const u = v as Record<string, unknown>;
  return (
    typeof u.id === 'string' &&
    typeof u.email === 'string' &&
    typeof u.name === 'string' &&
    typeof u.createdAt === 'string' &&
    (u.mustChangePassword === undefined || typeof u.mustChangePassword === 'boolean') &&
    (u.twoFactorEnabled === undefined || typeof u.twoFactorEnabled === 'boolean') &&
    (u.mustEnrolTwoFactor === undefined || typeof u.mustEnrolTwoFactor === 'boolean') &&
    (ROLES as readonly unknown[]).includes(u.role) &&
    (USER_STATUSES as readonly unknown[]).includes(u.status)
  );
}
