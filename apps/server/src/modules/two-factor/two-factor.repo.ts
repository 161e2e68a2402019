import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';

/** Queries of two-factor sign-in: the user's secrets, recovery codes and the Admin's setting. */

export function findTwoFactor(db: DbOrTx, userId: string) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'role',
      'password_hash',
      'two_factor_secret',
      'two_factor_pending_secret',
      'two_factor_enabled_at',
    ])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** The same row, locked for an enrolment or a change (concurrent ones take turns). */
export function lockTwoFactor(db: DbOrTx, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'two_factor_pending_secret', 'two_factor_enabled_at'])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

export function setPendingSecret(db: DbOrTx, userId: string, sealed: string) {
  return db
    .updateTable('users')
    .set({ two_factor_pending_secret: sealed })
    .where('id', '=', userId)
    .where('two_factor_enabled_at', 'is', null)
    .executeTakeFirst();
}

/** Turns two-factor sign-in on with the confirmed secret; `step` is the code just used. */
export function enable(db: DbOrTx, userId: string, sealed: string, step: number) {
  return db
    .updateTable('users')
    .set({
      two_factor_secret: sealed,
      two_factor_pending_secret: null,
      two_factor_enabled_at: sql<Date>`now()`,
      two_factor_last_step: step,
    })
    .where('id', '=', userId)
    .execute();
}

/**
 * Records `step` as the last accepted one, only when it is later than the last: false when the
 * code's step (or a later one) was already used. One statement, so two requests with one code
 * cannot both pass.
 */
export async function claimStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('users')
    .set({ two_factor_last_step: step })
    .where('id', '=', userId)
    .where('two_factor_enabled_at', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('two_factor_last_step', 'is', null),
        eb('two_factor_last_step', '<', String(step)),
      ]),
    )
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function replaceRecoveryCodes(db: DbOrTx, userId: string, hashes: Buffer[]) {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
    .execute();
}

/** Spends an unused recovery code; false when none matches. */
export async function useRecoveryCode(db: DbOrTx, userId: string, hash: Buffer): Promise<boolean> {
  const row = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countRecoveryCodesLeft(db: DbOrTx, userId: string): Promise<number> {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Turns two-factor sign-in off and drops its codes. `endSessions` (an Admin reset) also raises the
 * token version, which ends the user's sessions and API keys.
 */
export async function disable(db: DbOrTx, userId: string, endSessions: boolean) {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  return db
    .updateTable('users')
    .set({
      two_factor_secret: null,
      two_factor_pending_secret: null,
      two_factor_enabled_at: null,
      two_factor_last_step: null,
      ...(endSessions
        ? { token_version: sql<number>`token_version + 1`, updated_at: sql`now()` }
        : {}),
    })
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function findRequireTwoFactor(db: DbOrTx): Promise<boolean> {
  const row = await db
    .selectFrom('security_settings')
    .select('require_two_factor')
    .executeTakeFirst();
  return row?.require_two_factor ?? false;
}

export function setRequireTwoFactor(db: DbOrTx, value: boolean) {
  return db
    .updateTable('security_settings')
    .set({ require_two_factor: value, updated_at: sql`now()` })
    .execute();
}

/** The settings row, locked for a change that compares it before and after (its audit entry). */
export function lockSecuritySettings(db: DbOrTx) {
  return db.selectFrom('security_settings').selectAll().forUpdate().executeTakeFirst();
}
