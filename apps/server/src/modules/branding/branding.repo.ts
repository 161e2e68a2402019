import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';

/** Queries of the branding module: the whitelabel fields live on the users table. */

/**
 * The branding of the nearest user with a company name or logo, starting from the user itself
 * and walking up its creators (`ancestors` lists them nearest last), in one query.
 */
export function findBranding(db: DbOrTx, userId: string) {
  return db
    .selectFrom('users as me')
    .innerJoin('users as b', (join) => join.on(sql<boolean>`b.id = ANY (me.ancestors || me.id)`))
    .select(['b.company_name', 'b.company_logo'])
    .where('me.id', '=', userId)
    .where((eb) =>
      eb.or([eb('b.company_name', 'is not', null), eb('b.company_logo', 'is not', null)]),
    )
    .orderBy(sql`array_position(me.ancestors || me.id, b.id)`, 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The company name of the nearest branded user strictly above each of these users (their
 * creators, nearest first), or null where none is: the brand through which the platform serves
 * them. One query for all of them.
 */
export async function findBrandNamesAbove(
  db: DbOrTx,
  userIds: readonly string[],
): Promise<Map<string, string | null>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users as me')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('users as b')
          .select('b.company_name')
          .where(sql<boolean>`b.id = ANY (me.ancestors)`)
          .where((w) =>
            w.or([w('b.company_name', 'is not', null), w('b.company_logo', 'is not', null)]),
          )
          .orderBy(sql`array_position(me.ancestors, b.id)`, 'desc')
          .limit(1)
          .as('brand'),
      (join) => join.onTrue(),
    )
    .select(['me.id', 'brand.company_name'])
    .where('me.id', 'in', [...userIds])
    .execute();
  return new Map(rows.map((r) => [r.id, r.company_name ?? null]));
}

/** The user's own whitelabel fields (the settings screen), not the inherited ones. */
export function findOwnSettings(db: DbOrTx, userId: string) {
  return db
    .selectFrom('users')
    .select(['company_name', 'company_logo'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** Locks the user's row for a settings change: concurrent changes queue, none loses a logo. */
export function lockOwnSettings(tx: DbOrTx, userId: string) {
  return tx
    .selectFrom('users')
    .select(['company_name', 'company_logo'])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

/** Of these logo URLs, the ones some user's branding names (the orphan sweep keeps those). */
export async function usedLogoUrls(db: DbOrTx, urls: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('company_logo')
    .where('company_logo', 'in', [...urls])
    .execute();
  return rows.flatMap((r) => (r.company_logo ? [r.company_logo] : []));
}

export async function writeOwnSettings(
  tx: DbOrTx,
  userId: string,
  set: { company_name: string | null; company_logo: string | null },
): Promise<void> {
  await tx.updateTable('users').set(set).where('id', '=', userId).execute();
}
