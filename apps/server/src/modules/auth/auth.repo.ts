import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';

/** Queries of the auth module: credentials, password changes and one-time codes. */
function findCredentials(db: DbOrTx, by: 'email' | 'id', value: string) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'name',
      'role',
      'status',
      'password_hash',
      'token_version',
      'created_at',
      'must_change_password',
      'two_factor_enabled_at',
      'two_factor_secret',
    ])
    .where(by, '=', value)
    .executeTakeFirst();
}

export const findCredentialsByEmail = (db: DbOrTx, email: string) =>
  findCredentials(db, 'email', email);
export const findCredentialsById = (db: DbOrTx, id: string) => findCredentials(db, 'id', id);

/**
 * Sets a new password and ends every token issued before (token_version + 1). `mustChange`: an
 * Admin set it, so the user must change it at the next login; a password of the user's own
 * clears that.
 */
export function setPassword(db: DbOrTx, id: string, passwordHash: string, mustChange: boolean) {
  return db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      must_change_password: mustChange,
      token_version: sql`token_version + 1`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .returning(['token_version'])
    .executeTakeFirstOrThrow();
}

/** Upgrades a hash to stronger parameters after a successful login (tokens stay valid). */
export function rehashPassword(db: DbOrTx, id: string, passwordHash: string) {
  return db
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', id)
    .execute();
}

/**
 * A new OTP replaces every open one of the user. Run inside a transaction: the user row is
 * locked first, so requests sent at once take turns and at most one code is ever open (two open
 * codes would each get their own five attempts).
 */
export async function createReset(db: DbOrTx, userId: string, otpHash: string, ttlMinutes: number) {
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  await db
    .updateTable('password_resets')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('password_resets')
    .values({
      user_id: userId,
      otp_hash: otpHash,
      expires_at: sql<Date>`now() + make_interval(mins => ${ttlMinutes})`,
    })
    .execute();
}

/** The user's open, unexpired reset, locked for the attempt. */
export function lockOpenReset(db: DbOrTx, userId: string) {
  return db
    .selectFrom('password_resets')
    .select(['id', 'otp_hash', 'attempts'])
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('created_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

export function recordFailedAttempt(db: DbOrTx, id: string, exhausted: boolean) {
  return db
    .updateTable('password_resets')
    .set({ attempts: sql`attempts + 1`, ...(exhausted ? { used_at: sql`now()` } : {}) })
    .where('id', '=', id)
    .execute();
}

export function markResetUsed(db: DbOrTx, id: string) {
  return db
    .updateTable('password_resets')
    .set({ used_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Codes that can no longer be used (spent, replaced, locked out or expired) serve no purpose. */
export async function deleteSpentResets(db: DbOrTx): Promise<number> {
  const result = await db
    .deleteFrom('password_resets')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', sql<Date>`now()`)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
