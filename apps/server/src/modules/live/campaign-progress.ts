import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';

/**
 * Tells the open campaign pages that these campaigns' delivery moved (issue 14), through the
 * live channel (migration 0012's `herald_live`). The payload names only who may see each
 * campaign, its owner and the owner's creators up the chain (`c:<id>,<id>,...`); the hub also
 * sends it to every Admin. Pages reload their list through the normal, scoped routes. Inside a
 * transaction the NOTIFY leaves on commit, so a page never reloads before the change is there.
 * Callers publish once per batch they write, not once per message.
 */
export async function publishCampaignProgress(
  db: DbOrTx,
  campaignIds: readonly string[],
): Promise<void> {
  if (campaignIds.length === 0) return;
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
