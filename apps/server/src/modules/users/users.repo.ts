import { sql } from 'kysely';
import type pg from 'pg';
import { PROFILE_RECENT_CAMPAIGNS, type Role } from '@herald/contract';
import type { Db, DbOrTx } from '../../db/database.js';
import type { NewUserRow, UserUpdate } from '../../db/schema.js';
import { batchLoader } from '../../db/batch.js';
import { compiler, param, prepared } from '../../db/prepared.js';
import { usersInScope, type Actor } from '../../policies/scope.js';

/** Queries of the users module. Every list takes the caller's scope; writes take a transaction. */

/**
 * What leaves the table for a user (never the password hash, token version or two-factor
 * secrets: only whether two-factor sign-in is on).
 */
const USER_COLUMNS = [
  'users.id',
  'users.email',
  'users.name',
  'users.role',
  'users.status',
  'users.created_by',
  'users.ancestors',
  'users.created_at',
  'users.own_number',
  'users.company_name',
  'users.company_logo',
  'users.contact_person',
  'users.contact_person_phone',
  'users.mobile',
  'users.firm_name',
  'users.address',
  'users.city',
  'users.state',
  'users.pincode',
  'users.two_factor_enabled_at',
] as const;

const CREATOR_COLUMNS = ['creator.email as creator_email', 'creator.name as creator_name'] as const;

/** Where a page of users starts: the last row's created_at in microseconds and its id. */
export interface UserCursor {
  micros: string;
  id: string;
}

/** `%`, `_` and `\` stand for themselves in a search term (ILIKE's escape is `\`). */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * One page of the caller's scope without the caller, newest first (users_created_at_idx), each
 * with its creator. `search` keeps names or emails containing it in any case (the trigram
 * indexes of migration 9 serve it where pg_trgm exists). `cursor_micros` exactly locates a row's
 * created_at, which a JS Date (milliseconds) could not.
 */
export function listPageInScope(
  db: DbOrTx,
  actor: Actor,
  page: {
    search?: string | undefined;
    role?: Role | undefined;
    cursor?: UserCursor | undefined;
    limit: number;
  },
) {
  const { search, role, cursor, limit } = page;
  return db
    .selectFrom('users')
    .where(usersInScope(actor))
    .where('users.id', '<>', actor.id)
    .$if(role !== undefined, (q) => q.where('users.role', '=', role!))
    .$if(search !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('users.name', 'ilike', likeContains(search!)),
          eb('users.email', 'ilike', likeContains(search!)),
        ]),
      ),
    )
    .$if(cursor !== undefined, (q) =>
      q.where(
        sql<boolean>`(users.created_at, users.id) < (timestamptz 'epoch' + ${cursor!.micros}::bigint * interval '1 microsecond', ${cursor!.id}::uuid)`,
      ),
    )
    .leftJoin('users as creator', 'creator.id', 'users.created_by')
    .select([...USER_COLUMNS, ...CREATOR_COLUMNS])
    .select(
      sql<string>`(extract(epoch from users.created_at) * 1000000)::bigint::text`.as(
        'cursor_micros',
      ),
    )
    .orderBy('users.created_at', 'desc')
    .orderBy('users.id', 'desc')
    .limit(limit)
    .execute();
}

export type UserWithCreator = Omit<
  Awaited<ReturnType<typeof listPageInScope>>[number],
  'cursor_micros'
>;

const findByIdQuery = prepared('users.findById', { id: param<string>() }, (p) =>
  compiler
    .selectFrom('users')
    .where('users.id', '=', p.id)
    .leftJoin('users as creator', 'creator.id', 'users.created_by')
    .select([...USER_COLUMNS, ...CREATOR_COLUMNS]),
);

/** One user with its creator: the profile's hot path, a prepared statement on the pool. */
export async function findById(pool: pg.Pool, id: string): Promise<UserWithCreator | undefined> {
  return (await findByIdQuery.run(pool, { id }))[0];
}

/** A balance row of the profile, as PostgreSQL's json_build_object spells it. */
export interface ProfileBalanceRow {
  creditType: string;
  totalAdded: number;
  totalUsed: number;
  remaining: number;
}

/** A recent campaign of the profile, as PostgreSQL's json_build_object spells it. */
export interface ProfileCampaignRow {
  id: string;
  createdAt: string;
  creditType: string;
  recipientCount: number;
  status: string;
  test: boolean;
}

const findProfilesQuery = prepared('users.findProfiles', { ids: param<string[]>() }, (p) =>
  compiler
    .selectFrom('users')
    .where(sql<boolean>`users.id = ANY(${p.ids}::uuid[])`)
    .leftJoin('users as creator', 'creator.id', 'users.created_by')
    .select([...USER_COLUMNS, ...CREATOR_COLUMNS])
    .select([
      sql<ProfileBalanceRow[]>`(SELECT coalesce(json_agg(json_build_object(
        'creditType', b.credit_type, 'totalAdded', b.total_added,
        'totalUsed', b.total_removed, 'remaining', b.balance)), '[]')
        FROM credit_balances b WHERE b.user_id = users.id)`.as('balances'),
      sql<ProfileCampaignRow[]>`(SELECT coalesce(json_agg(json_build_object(
        'id', c.id, 'createdAt', c.created_at, 'creditType', c.credit_type,
        'recipientCount', c.recipient_count, 'status', c.status, 'test', c.test)
        ORDER BY c.created_at DESC, c.id DESC), '[]')
        FROM (SELECT id, created_at, credit_type, recipient_count, status, test FROM campaigns
          WHERE campaigns.user_id = users.id
          ORDER BY created_at DESC, id DESC LIMIT ${sql.lit(PROFILE_RECENT_CAMPAIGNS)}) c)`.as(
        'recent_campaigns',
      ),
    ]),
);

export type ProfileRow = Awaited<ReturnType<typeof findProfilesQuery.run>>[number];

/**
 * Profiles in one round trip (docs/performance.md, request CPU): each user with its creator, its
 * balances and its latest campaigns, aggregated by PostgreSQL into the row. `ids` must be UUIDs.
 */
export function findProfiles(pool: pg.Pool, ids: string[]): Promise<ProfileRow[]> {
  return findProfilesQuery.run(pool, { ids });
}

const profileLoaders = new WeakMap<pg.Pool, (id: string) => Promise<ProfileRow | undefined>>();

/** One profile (`id` a UUID); the reads that arrive together share one statement (db/batch.ts). */
export function findProfile(pool: pg.Pool, id: string): Promise<ProfileRow | undefined> {
  let load = profileLoaders.get(pool);
  if (!load) {
    load = batchLoader(
      (ids: string[]) => findProfiles(pool, ids),
      (row) => row.id,
    );
    profileLoaders.set(pool, load);
  }
  return load(id);
}

/** Loads a user row under a row lock for the rest of the transaction. */
export function lockById(tx: DbOrTx, id: string, mode: 'share' | 'update') {
  const q = tx.selectFrom('users').select(USER_COLUMNS).where('users.id', '=', id);
  return (mode === 'share' ? q.forShare() : q.forUpdate()).executeTakeFirst();
}

export type LockedUser = NonNullable<Awaited<ReturnType<typeof lockById>>>;

/**
 * Locks every Admin row in id order. Changes to Admins take this first, so two Admins acting on
 * each other queue instead of deadlocking, and the last-active-Admin count cannot race.
 */
export async function lockAdmins(tx: DbOrTx) {
  return tx
    .selectFrom('users')
    .select(['id', 'status'])
    .where('role', '=', 'Admin')
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function isEmailTaken(db: DbOrTx, email: string, exceptId?: string): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where('email', '=', email);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function insertUser(tx: DbOrTx, row: NewUserRow): Promise<string> {
  const { id } = await tx.insertInto('users').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** `endTokens` bumps the token version: every token issued before stops working. */
export async function updateUser(
  tx: DbOrTx,
  id: string,
  set: UserUpdate,
  endTokens: boolean,
): Promise<void> {
  await tx
    .updateTable('users')
    .set({
      ...set,
      ...(endTokens ? { token_version: sql<number>`token_version + 1` } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

/** The distinct roles of the users this one created directly. */
export async function childRoles(db: DbOrTx, id: string): Promise<Role[]> {
  const rows = await db
    .selectFrom('users')
    .select('role')
    .distinct()
    .where('created_by', '=', id)
    .execute();
  return rows.map((r) => r.role);
}

/** Users in the actor's scope, the actor excluded. */
export async function countInScope(db: DbOrTx, actor: Actor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(usersInScope(actor))
    .where('users.id', '<>', actor.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the table holds any user at all. */
export async function anyUserExists(db: DbOrTx): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Inserts the first Admin unless a user exists by then; answers whether it did. The table lock
 * makes two instances starting at once take turns, so only one of them inserts.
 */
export async function insertFirstAdmin(
  db: Db,
  email: string,
  passwordHash: string,
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await sql`LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE`.execute(tx);
    if (await anyUserExists(tx)) return false;
    await tx
      .insertInto('users')
      .values({ email, name: 'Administrator', role: 'Admin', password_hash: passwordHash })
      .execute();
    return true;
  });
}

export { isUniqueViolation } from '../../db/pg-errors.js';
