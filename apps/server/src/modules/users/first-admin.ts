import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { PasswordHasher } from '../../lib/password.js';
import { anyUserExists, insertFirstAdmin } from './users.repo.js';

export interface FirstAdmin {
  email: string;
  /** Set only when it was generated now: printed once to the log. */
  generatedPassword?: string;
}

/**
 * On an empty database, creates the first Admin from ADMIN_EMAIL / ADMIN_PASSWORD, or
 * admin@herald.local with a random password (docs/operations.md, One instance). Returns null when
 * users already exist. Safe with two instances starting at once: the insert is guarded by a lock.
 */
export async function ensureFirstAdmin(
  db: Db,
  hasher: PasswordHasher,
  opts: { email?: string | undefined; password?: string | undefined },
): Promise<FirstAdmin | null> {
  if (await anyUserExists(db)) return null;
  const email = (opts.email ?? 'admin@herald.local').toLowerCase();
  const generated = opts.password ? undefined : randomBytes(12).toString('base64url');
  const passwordHash = await hasher.hash(opts.password ?? generated!);
  if (!(await insertFirstAdmin(db, email, passwordHash))) return null;
  return generated ? { email, generatedPassword: generated } : { email };
}
