import { sql } from 'kysely';
import { SETTLED_CAMPAIGN_STATUSES } from '@herald/contract';
import type { Tx } from '../../db/database.js';

/**
 * The data cleanup's delete of campaigns (docs/product.md, Backup and storage): in the caller's
 * transaction, the campaigns created in a range, or those of users being deleted (owned or
 * created by them). Recipients follow by trigger, files rows and report entries by cascade; the
 * ledger entries that charged them stay (balances do not change). The stored files are answered
 * so the caller removes them once the transaction committed (removeCampaignFiles in
 * campaign-files.ts).
 *
 * A range deletes only campaigns whose credits are final: a settled status and, once the
 * engine sent it, its settlement written. One still awaiting approval, approved, sending or
 * being cancelled holds charged credits that its rejection or settlement will refund, so it is
 * kept and counted (`kept`). A user's campaigns go with the user, whatever their state.
 */
export type CampaignSelection = { from: Date; to: Date } | { userIds: readonly string[] };

export interface DeletedCampaigns {
  count: number;
  /** Campaigns of the range left alone because they are not settled. */
  kept: number;
  storedNames: string[];
}

const settled = sql`status = ANY (${[...SETTLED_CAMPAIGN_STATUSES]}::text[])
  AND (dispatch_state IS NULL OR delivery_settled)`;

export async function deleteCampaigns(tx: Tx, sel: CampaignSelection): Promise<DeletedCampaigns> {
  const where =
    'userIds' in sel
      ? sql`user_id = ANY (${[...sel.userIds]}::uuid[]) OR created_by = ANY (${[...sel.userIds]}::uuid[])`
      : sql`created_at >= ${sel.from} AND created_at < ${sel.to} AND ${settled}`;
  const { rows } = await sql<{ stored_name: string | null; n: string }>`
    WITH gone AS (DELETE FROM campaigns WHERE ${where} RETURNING id),
    files AS (
      SELECT f.stored_name FROM campaign_files f WHERE f.campaign_id IN (SELECT id FROM gone)
    )
    SELECT NULL AS stored_name, (SELECT count(*) FROM gone)::text AS n
    UNION ALL SELECT stored_name, NULL FROM files`.execute(tx);
  let kept = 0;
  if (!('userIds' in sel)) {
    const left = await sql<{ n: string }>`SELECT count(*)::text AS n FROM campaigns
      WHERE created_at >= ${sel.from} AND created_at < ${sel.to}`.execute(tx);
    kept = Number(left.rows[0]?.n ?? 0);
  }
  return {
    count: Number(rows.find((r) => r.n !== null)?.n ?? 0),
    kept,
    storedNames: rows.flatMap((r) => (r.stored_name ? [r.stored_name] : [])),
  };
}
