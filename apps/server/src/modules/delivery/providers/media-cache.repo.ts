import { sql } from 'kysely';
import type { DbOrTx } from '../../../db/database.js';

/**
 * The provider_media rows (migration 0030): a campaign's file uploaded to a provider once per
 * sender, shared by every instance. Queries only; media-cache.ts decides.
 */

export interface MediaKey {
  senderKey: string;
  campaignId: string;
  mediaKey: string;
}

export function readMedia(db: DbOrTx, k: MediaKey) {
  return db
    .selectFrom('provider_media')
    .select(['media_id', 'uploaded_at'])
    .where('sender_key', '=', k.senderKey)
    .where('campaign_id', '=', k.campaignId)
    .where('media_key', '=', k.mediaKey)
    .executeTakeFirst();
}

/**
 * Claims the upload of `k` with `claim` in one statement: a new row, or one whose id the
 * provider forgot (uploaded before `expiredBefore`), or whose claim a dead instance left
 * (claimed before `staleBefore`, still without an id). True when this claim won; a row some
 * other claim holds, or holds a fresh id, is left alone.
 */
export async function claimMedia(
  db: DbOrTx,
  k: MediaKey,
  claim: string,
  staleBefore: Date,
  expiredBefore: Date,
): Promise<boolean> {
  const { rows } = await sql<{ claim: string }>`
    INSERT INTO provider_media AS m (sender_key, campaign_id, media_key, claim)
    VALUES (${k.senderKey}, ${k.campaignId}::uuid, ${k.mediaKey}, ${claim})
    ON CONFLICT (sender_key, campaign_id, media_key) DO UPDATE
      SET claim = excluded.claim, claimed_at = now(), media_id = NULL, uploaded_at = NULL
      WHERE (m.media_id IS NULL AND m.claimed_at < ${staleBefore.toISOString()}::timestamptz)
         OR (m.media_id IS NOT NULL AND m.uploaded_at < ${expiredBefore.toISOString()}::timestamptz)
    RETURNING m.claim`.execute(db);
  return rows[0]?.claim === claim;
}

/** Records the provider's id of an upload this claim made: its time, or null if the claim was taken over. */
export async function finishMedia(
  db: DbOrTx,
  k: MediaKey,
  claim: string,
  mediaId: string,
): Promise<Date | null> {
  const row = await db
    .updateTable('provider_media')
    .set({ media_id: mediaId, uploaded_at: sql<Date>`now()` })
    .where('sender_key', '=', k.senderKey)
    .where('campaign_id', '=', k.campaignId)
    .where('media_key', '=', k.mediaKey)
    .where('claim', '=', claim)
    .returning('uploaded_at')
    .executeTakeFirst();
  return row?.uploaded_at ?? null;
}

/** Gives a claim up after a failed upload, so the next send may try at once. */
export async function releaseMedia(db: DbOrTx, k: MediaKey, claim: string): Promise<void> {
  await db
    .deleteFrom('provider_media')
    .where('sender_key', '=', k.senderKey)
    .where('campaign_id', '=', k.campaignId)
    .where('media_key', '=', k.mediaKey)
    .where('claim', '=', claim)
    .where('media_id', 'is', null)
    .execute();
}
