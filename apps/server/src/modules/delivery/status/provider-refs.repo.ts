import type { DbOrTx } from '../../../db/database.js';

/**
 * The status path's one read of provider_message_refs (migration 0030), for providers whose
 * callbacks name a message by their own id only (docs/delivery.md, Providers). The rows are
 * written with the send's answer (dispatch.repo.ts writeResults).
 */

/**
 * The recipients a provider's own message ids name (migration 0030's provider_message_refs, by
 * its primary key): one read for a batch's ids, before the batch's statement.
 */
export function recipientsByProviderIds(
  db: DbOrTx,
  provider: string,
  ids: readonly string[],
): Promise<{ provider_message_id: string; campaign_id: string; phone: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('provider_message_refs')
    .select(['provider_message_id', 'campaign_id', 'phone'])
    .where('provider', '=', provider)
    .where('provider_message_id', 'in', [...new Set(ids)])
    .execute();
}
