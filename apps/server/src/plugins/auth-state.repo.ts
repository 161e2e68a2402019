import { sql } from 'kysely';
import type pg from 'pg';
import type { Db, DbOrTx } from '../db/database.js';
import { compiler, param, prepared } from '../db/prepared.js';

/** AuthState's statements (auth-state.ts): the user's row, and the revocation channel. */

/** The channel a change to a user's role, status, password or token version is told on. */
export const AUTH_CHANNEL = 'herald_auth';

const userById = prepared('auth.userById', { id: param<string>() }, (p) =>
  compiler
    .selectFrom('users')
    .select([
      'id',
      'email',
      'name',
      'role',
      'status',
      'token_version',
      'created_at',
      'must_change_password',
      sql<boolean>`two_factor_enabled_at IS NOT NULL`.as('two_factor_enabled'),
      sql<boolean>`(SELECT require_two_factor FROM security_settings)`.as('require_two_factor'),
    ])
    .where('id', '=', p.id),
);

export type AuthUserRow = Awaited<ReturnType<typeof userById.run>>[number];

export async function findAuthUser(db: Db, id: string): Promise<AuthUserRow | undefined> {
  return (await userById.run(db, { id }))[0];
}

/** LISTENs for revocations on the state's own connection. */
export async function listenForChanges(client: pg.Client): Promise<void> {
  await client.query(`LISTEN ${AUTH_CHANNEL}`);
}

/** The payload that tells every instance to forget every cached user (a platform setting). */
export const ALL_USERS = '*';

/** Tells every instance the user changed; inside a transaction it leaves on commit. */
export async function notifyChanged(db: DbOrTx, id: string): Promise<void> {
  await sql`SELECT pg_notify(${AUTH_CHANNEL}, ${id})`.execute(db);
}
