import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';

/** Queries of a new user's one-time link to set a password (table of migration 0024). */

export async function insertSetupToken(
  db: DbOrTx,
  userId: string,
  tokenHash: string,
  ttlHours: number,
): Promise<void> {
  await db
    .insertInto('password_setup_tokens')
    .values({
      user_id: userId,
      token_hash: tokenHash,
      expires_at: sql<Date>`now() + make_interval(hours => ${ttlHours})`,
    })
    .execute();
}

/** The user of a link that still works (unused, unexpired, its user active), without taking it. */
export function findOpenSetupToken(db: DbOrTx, tokenHash: string) {
  return db
    .selectFrom('password_setup_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select('u.id')
    .where('t.token_hash', '=', tokenHash)
    .where('t.used_at', 'is', null)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .where('u.status', '=', 'Active')
    .executeTakeFirst();
}

/**
 * Takes the link: marks it used and answers its user, in one statement, only when it is unused,
 * unexpired and its user active. Two uses at once: the row lock lets one through.
 */
export function takeSetupToken(db: DbOrTx, tokenHash: string) {
  return db
    .updateTable('password_setup_tokens as t')
    .set({ used_at: sql`now()` })
    .from('users as u')
    .whereRef('u.id', '=', 't.user_id')
    .where('t.token_hash', '=', tokenHash)
    .where('t.used_at', 'is', null)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .where('u.status', '=', 'Active')
    .returning(['u.id', 'u.email', 'u.name', 'u.role'])
    .executeTakeFirst();
}

/** Links that can no longer be used (used or expired) serve no purpose. */
export async function deleteSpentSetupTokens(db: DbOrTx): Promise<number> {
  const result = await db
    .deleteFrom('password_setup_tokens')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', sql<Date>`now()`)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends the user's links that still work (a new one replaces them). */
export async function endOpenSetupTokens(db: DbOrTx, userId: string): Promise<void> {
  await db
    .updateTable('password_setup_tokens')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
