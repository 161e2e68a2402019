import type { DbOrTx } from '../../db/database.js';
import { notifyCampaignWatchers } from './live.repo.js';

/**
 * Tells the open campaign pages that these campaigns' delivery moved, through the
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
  await notifyCampaignWatchers(db, campaignIds);
}
