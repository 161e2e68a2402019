import type { DbOrTx } from '../../db/database.js';

/** One keyset page of a campaign's recipients with their delivery columns, in number order. */
export function recipientStatusPage(
  db: DbOrTx,
  campaignId: string,
  after: string | undefined,
  limit: number,
) {
  let q = db
    .selectFrom('campaign_recipients')
    .select([
      'phone',
      'state',
      'attempts',
      'error_code',
      'error_text',
      'sent_at',
      'delivered_at',
      'read_at',
      'failed_at',
    ])
    .where('campaign_id', '=', campaignId);
  if (after !== undefined) q = q.where('phone', '>', after);
  return q.orderBy('phone').limit(limit).execute();
}

export type RecipientStatusRow = Awaited<ReturnType<typeof recipientStatusPage>>[number];
