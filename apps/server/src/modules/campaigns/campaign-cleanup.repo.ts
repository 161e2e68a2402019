import { sql } from 'kysely';
import type { Tx } from '../../db/database.js';

/**
 * The data cleanup's delete of campaigns (docs/product.md, Backup and storage): in the caller's
 * transaction, the campaigns created in a range, or those of users being deleted (owned or
 * created by them). Recipients follow by trigger, files rows and report entries by cascade; the
 * ledger entries that charged them stay (balances do not change). The stored files are answered
 * so the caller removes them once the transaction committed (removeCampaignFiles in
 * campaign-files.ts).
 */
export type CampaignSelection = { from: Date; to: Date } | { userIds: readonly string[] };

export interface DeletedCampaigns {
  count: number;
  storedNames: string[];
}

export async function deleteCampaigns(tx: Tx, sel: CampaignSelection): Promise<DeletedCampaigns> {
  const where =
    'userIds' in sel
      ? sql`user_id = ANY (${[...sel.userIds]}::uuid[]) OR created_by = ANY (${[...sel.userIds]}::uuid[])`
      : sql`created_at >= ${sel.from} AND created_at < ${sel.to}`;
  const { rows } = await sql<{ stored_name: string | null; n: string }>`
    WITH gone AS (DELETE FROM campaigns WHERE ${where} RETURNING id),
    files AS (
      SELECT f.stored_name FROM campaign_files f WHERE f.campaign_id IN (SELECT id FROM gone)
    )
    SELECT NULL AS stored_name, (SELECT count(*) FROM gone)::text AS n
    UNION ALL SELECT stored_name, NULL FROM files`.execute(tx);
  return {
    count: Number(rows.find((r) => r.n !== null)?.n ?? 0),
    storedNames: rows.flatMap((r) => (r.stored_name ? [r.stored_name] : [])),
  };
}
