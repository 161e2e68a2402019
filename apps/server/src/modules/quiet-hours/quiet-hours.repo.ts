import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';

/** Queries of quiet hours: an account's own window lives on its users row (migration 0040). */

export interface QuietRow {
  quiet_start: number | null;
  quiet_end: number | null;
}

/** The user's own window and role (null window: inherited). */
export function findOwnQuietHours(db: DbOrTx, userId: string, lock = false) {
  return db
    .selectFrom('users')
    .select(['role', 'email', 'quiet_start', 'quiet_end'])
    .where('id', '=', userId)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
}

/**
 * The window of the nearest user with one of its own, starting from the user itself and
 * walking up its creators (`ancestors` lists them nearest last), in one query, as branding is
 * found (branding.repo.ts findBranding). Undefined when nobody on the way has one.
 */
export function findEffectiveQuietHours(db: DbOrTx, userId: string) {
  return db
    .selectFrom('users as me')
    .innerJoin('users as q', (join) => join.on(sql<boolean>`q.id = ANY (me.ancestors || me.id)`))
    .select(['q.quiet_start', 'q.quiet_end'])
    .where('me.id', '=', userId)
    .where('q.quiet_start', 'is not', null)
    .orderBy(sql`array_position(me.ancestors || me.id, q.id)`, 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function writeOwnQuietHours(db: DbOrTx, userId: string, set: QuietRow) {
  await db.updateTable('users').set(set).where('id', '=', userId).execute();
}

/** Records the window on a campaign (its owner's effective one), or NULL for none. */
export async function captureCampaignQuietHours(
  db: DbOrTx,
  campaignId: string,
  set: QuietRow,
): Promise<void> {
  await db.updateTable('campaigns').set(set).where('id', '=', campaignId).execute();
}

/** The campaign's owner (whose window applies to it). */
export async function campaignOwner(db: DbOrTx, campaignId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('campaigns')
    .select('user_id')
    .where('id', '=', campaignId)
    .executeTakeFirst();
  return row?.user_id;
}
