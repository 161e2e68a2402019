import { sql } from 'kysely';
import type { DbOrTx } from '../../../db/database.js';
import type { DeliveryState } from '@herald/contract';

/** How many distinct provider errors the details dialog lists (the commonest first). */
export const ERROR_GROUPS_MAX = 100;

export interface StateGroup {
  state: DeliveryState | null;
  error_code: string | null;
  error_text: string | null;
  count: number;
}

/**
 * A campaign's recipients grouped by state, and its failed ones by error code and text, in ONE
 * pass over the campaign's rows (the primary key's campaign_id prefix bounds it): the
 * aggregate is materialised once and read twice. Non-failed rows are grouped by state alone
 * (a queued retry's last error is not a failure); failures keep at most ERROR_GROUPS_MAX
 * groups, so a provider that puts the number in its text cannot grow the answer without end.
 */
export async function stateGroups(db: DbOrTx, campaignId: string): Promise<StateGroup[]> {
  const { rows } = await sql<StateGroup>`
    WITH g AS MATERIALIZED (
      SELECT state,
             CASE WHEN state = 'failed' THEN coalesce(error_code, '') END AS error_code,
             CASE WHEN state = 'failed' THEN coalesce(error_text, '') END AS error_text,
             count(*)::int AS count
      FROM campaign_recipients
      WHERE campaign_id = ${campaignId}::uuid
      GROUP BY 1, 2, 3
    )
    (SELECT state, NULL AS error_code, NULL AS error_text, sum(count)::int AS count
     FROM g GROUP BY state)
    UNION ALL
    (SELECT state, error_code, error_text, count FROM g WHERE state = 'failed'
     ORDER BY count DESC, error_code, error_text LIMIT ${ERROR_GROUPS_MAX})`.execute(db);
  return rows;
}
