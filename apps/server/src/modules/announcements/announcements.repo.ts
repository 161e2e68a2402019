import { sql, type SqlBool } from 'kysely';
import type { AnnouncementListFilters, AnnouncementVisibilityType } from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';
import type { Actor } from '../../policies/scope.js';

/** Announcements: queries only, each taking the connection or transaction to run on. */

/** Of these image names, the ones an announcement names (the orphan sweep keeps those). */
export async function namedImages(db: DbOrTx, images: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('announcements')
    .select('image')
    .where('image', 'in', [...images])
    .execute();
  return rows.flatMap((r) => (r.image ? [r.image] : []));
}

export interface AnnouncementRow {
  id: string;
  seq: string;
  title: string;
  message: string;
  link: string | null;
  image: string | null;
  expiry_date: Date | null;
  visibility_type: AnnouncementVisibilityType;
  created_at: Date;
}

const COLUMNS = [
  'a.id',
  'a.seq',
  'a.title',
  'a.message',
  'a.link',
  'a.image',
  'a.expiry_date',
  'a.visibility_type',
  'a.created_at',
] as const;

/**
 * Announcements the actor is in the audience of (docs/product.md, Announcements and alerts): `all` everyone,
 * `reseller` every Reseller and Sub-Reseller, `specific` the listed users. The same rule holds
 * for every role, Admin included (Admin sees every announcement on Manage Announcements).
 */
function visibleTo(actor: Actor) {
  const reseller = actor.role === 'Reseller' || actor.role === 'Sub-Reseller';
  return sql<SqlBool>`(a.visibility_type = 'all'
    ${reseller ? sql`OR a.visibility_type = 'reseller'` : sql``}
    OR (a.visibility_type = 'specific' AND EXISTS (
      SELECT 1 FROM announcement_targets t
      WHERE t.announcement_id = a.id AND t.user_id = ${actor.id}::uuid)))`;
}

const unexpired = sql<SqlBool>`(a.expiry_date IS NULL OR a.expiry_date > now())`;

/** The actor's announcements with its seen state, newest first; one row more than `limit`. */
export function listVisible(
  db: DbOrTx,
  actor: Actor,
  q: AnnouncementListFilters,
  opts: { unexpiredOnly: boolean },
) {
  let query = db
    .selectFrom('announcements as a')
    .select(COLUMNS)
    .select(
      sql<boolean>`EXISTS (SELECT 1 FROM announcement_seen s
        WHERE s.announcement_id = a.id AND s.user_id = ${actor.id}::uuid)`.as('seen'),
    )
    .where(visibleTo(actor));
  if (opts.unexpiredOnly) query = query.where(unexpired);
  if (q.cursor) query = query.where('a.seq', '<', q.cursor as never);
  return query
    .orderBy('a.seq', 'desc')
    .limit(q.limit + 1)
    .execute();
}

/** How many unexpired announcements of the actor's audience it has not seen. */
export async function countUnseen(db: DbOrTx, actor: Actor): Promise<number> {
  const row = await db
    .selectFrom('announcements as a')
    .select(sql<number>`count(*)::int`.as('n'))
    .where(visibleTo(actor))
    .where(unexpired)
    .where(
      sql<SqlBool>`NOT EXISTS (SELECT 1 FROM announcement_seen s
        WHERE s.announcement_id = a.id AND s.user_id = ${actor.id}::uuid)`,
    )
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Every announcement with its target emails (Admin), newest first; one row more than `limit`. */
export function listAll(db: DbOrTx, q: AnnouncementListFilters) {
  let query = db
    .selectFrom('announcements as a')
    .select(COLUMNS)
    .select(
      sql<string[]>`COALESCE((SELECT array_agg(u.email ORDER BY u.email)
        FROM announcement_targets t JOIN users u ON u.id = t.user_id
        WHERE t.announcement_id = a.id), '{}')`.as('targets'),
    );
  if (q.cursor) query = query.where('a.seq', '<', q.cursor as never);
  return query
    .orderBy('a.seq', 'desc')
    .limit(q.limit + 1)
    .execute();
}

/** Whether the actor is in the announcement's audience (expired ones included). */
export async function isVisible(db: DbOrTx, actor: Actor, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('announcements as a')
    .select('a.id')
    .where('a.id', '=', id)
    .where(visibleTo(actor))
    .executeTakeFirst();
  return !!row;
}

/** The users with these emails (lower-case), as id and email. */
export function usersByEmail(db: DbOrTx, emails: readonly string[]) {
  if (emails.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').select(['id', 'email']).where('email', 'in', emails).execute();
}

export function insertAnnouncement(
  tx: Tx,
  row: {
    title: string;
    message: string;
    link: string | null;
    image: string | null;
    expiry_date: Date | null;
    visibility_type: AnnouncementVisibilityType;
    created_by: string;
  },
) {
  return tx
    .insertInto('announcements')
    .values(row)
    .returning(['id', 'seq', 'created_at'])
    .executeTakeFirstOrThrow();
}

export async function insertTargets(tx: Tx, id: string, userIds: readonly string[]) {
  if (userIds.length === 0) return;
  await tx
    .insertInto('announcement_targets')
    .values(userIds.map((user_id) => ({ announcement_id: id, user_id })))
    .execute();
}

/** Deletes the announcement (targets and seen rows go with it); its image name, or undefined. */
export async function deleteAnnouncement(db: DbOrTx, id: string) {
  return db
    .deleteFrom('announcements')
    .where('id', '=', id)
    .returning(['image'])
    .executeTakeFirst();
}

export async function markSeen(db: DbOrTx, id: string, userId: string): Promise<void> {
  await db
    .insertInto('announcement_seen')
    .values({ announcement_id: id, user_id: userId })
    .onConflict((oc) => oc.columns(['user_id', 'announcement_id']).doNothing())
    .execute();
}
