import { sql } from 'kysely';
import type { DbOrTx } from '../../../db/database.js';

/**
 * Whose suppression list a person's reply belongs to (docs/delivery.md, Opt-outs): the owner of
 * the most recent campaign sent to that number through that provider. The provider's campaigns
 * are walked newest first (campaigns_sender_created_idx, migration 0029), each probed on the
 * recipients' primary key, and the walk stops at the first that reached the number; a number no
 * campaign reached costs one probe per campaign of the provider, which replies (a person's
 * STOP) are rare enough to afford, where an index of every recipient by phone would slow every
 * campaign's intake.
 */
export async function latestOwnerReaching(
  db: DbOrTx,
  provider: string,
  phone: string,
): Promise<string | undefined> {
  const { rows } = await sql<{ user_id: string }>`
    SELECT c.user_id FROM campaigns c
      JOIN senders s ON s.id = c.sender_id
      JOIN providers p ON p.id = s.provider_id AND p.key = ${provider}
     WHERE c.sender_id IS NOT NULL
       AND EXISTS (SELECT 1 FROM campaign_recipients r
                    WHERE r.campaign_id = c.id AND r.phone = ${phone}
                      AND r.state IN ('sent', 'delivered', 'read', 'failed'))
     ORDER BY c.created_at DESC
     LIMIT 1`.execute(db);
  return rows[0]?.user_id;
}
