import { sql } from 'kysely';
import {
  DELIVERED_REPORT_STATUSES,
  READ_REPORT_STATUS,
  type CampaignNumberGroup,
} from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import { recipientPage } from './campaign-actions.repo.js';

/**
 * The numbers of one group of a campaign, in number order after `after` (keyset on the primary
 * key of campaign_recipients or campaign_report_entries). The report groups are the contract's
 * (report-filters.ts), decided in SQL on the trimmed, lower-cased status: `failed` is every row
 * not counted delivered, `not_read` every row not Read.
 */
export async function numbersPage(
  db: DbOrTx,
  campaignId: string,
  which: CampaignNumberGroup,
  after: string | undefined,
  limit: number,
): Promise<string[]> {
  if (which === 'all') return recipientPage(db, campaignId, after, limit);
  const delivered = [...DELIVERED_REPORT_STATUSES];
  let q = db
    .selectFrom('campaign_report_entries')
    .select('phone')
    .where('campaign_id', '=', campaignId)
    .where(
      which === 'failed'
        ? sql<boolean>`lower(trim(status)) <> ALL(${delivered}::text[])`
        : sql<boolean>`lower(trim(status)) <> ${READ_REPORT_STATUS}`,
    );
  if (after !== undefined) q = q.where('phone', '>', after);
  const rows = await q.orderBy('phone').limit(limit).execute();
  return rows.map((r) => r.phone);
}
