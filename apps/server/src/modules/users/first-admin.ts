import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { PasswordHasher } from '../../lib/password.js';

export interface FirstAdmin {
  email: string;
  /** Set only when it was generated now: printed once to the log. */
  generatedPassword?: string;
}

/**
 * On an empty database, creates the first Admin from ADMIN_EMAIL / ADMIN_PASSWORD, or
 * admin@herald.local with a random password (decisions.md section 1). Returns null when users
 * already exist. Safe with two instances starting at once: the insert is guarded by a lock.
 */
export async function ensureFirstAdmin(
  db: Db,
  hasher: PasswordHasher,
  opts: { email?: string | undefined; password?: string | undefined },
): Promise<FirstAdmin | null> {
  const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const email = (opts.email ?? 'admin@herald.local').toLowerCase();
  const generated = opts.password ? undefined : randomBytes(12).toString('base64url');
  const passwordHash = await hasher.hash(opts.password ?? generated!);
  const created = await db.transaction().execute(async (tx) => {
    await sql`LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE`.execute(tx);
    const again = await tx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (again) return false;
    await tx
      .insertInto('users')
      .values({ email, name: 'Administrator', role: 'Admin', password_hash: passwordHash })
      .execute();
    return true;
  });
  if (!created) return null;
  return generated ? { email, generatedPassword: generated } : { email };
}
