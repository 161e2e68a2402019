import { sql } from 'kysely';
import type pg from 'pg';
import type { Role } from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';

/** Queries of the live channel: its LISTEN, its NOTIFY of campaign progress, a token re-check. */

/** LISTENs on the channels, on the hub's own connection. */
export async function listenTo(client: pg.Client, channels: readonly string[]): Promise<void> {
  await client.query(channels.map((c) => `LISTEN ${c}`).join('; '));
}

/** What decides whether a user's open streams may stay after a revocation. */
export function findTokenState(
  db: DbOrTx,
  userId: string,
): Promise<{ status: string; token_version: number; role: Role } | undefined> {
  return db
    .selectFrom('users')
    .select(['status', 'token_version', 'role'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/**
 * One `herald_live` NOTIFY per campaign, naming who may see it: its owner and the owner's
 * creators up the chain (`c:<id>,<id>,...`).
 */
export async function notifyCampaignWatchers(
  db: DbOrTx,
  campaignIds: readonly string[],
): Promise<void> {
  await sql`
    WITH RECURSIVE up AS (
      SELECT c.id AS campaign_id, c.user_id AS user_id
      FROM campaigns c WHERE c.id = ANY(${[...campaignIds]}::uuid[])
      UNION
      SELECT up.campaign_id, u.created_by FROM up JOIN users u ON u.id = up.user_id
      WHERE u.created_by IS NOT NULL
    )
    SELECT pg_notify('herald_live', 'c:' || string_agg(DISTINCT user_id::text, ','))
    FROM up GROUP BY campaign_id`.execute(db);
}
