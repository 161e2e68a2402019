/**
 * The engine's counters off the campaign row. Every batch of send answers and every
 * batch of status events used to add to `campaigns.sent_count` and the rest, so each held the
 * campaign's row lock until its commit (a WAL flush): at 5,000 messages a second the writers of
 * one campaign queued behind each other and behind its claims. They now add to one of a few
 * rows per campaign here, chosen by the writing connection (its backend pid modulo
 * DELIVERY_COUNT_SLOTS), so concurrent writers rarely meet. A campaign's count is its row's
 * counter plus the sum of its slots; settling a campaign folds the slots into the row
 * (finalize.repo.ts). A slot may go below zero (rows moved out of `sent` by another writer than
 * the one that moved them in); the sum never does.
 */
export const sql = /* sql */ `
CREATE TABLE campaign_delivery_counts (
  campaign_id uuid NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  slot smallint NOT NULL,
  sent integer NOT NULL DEFAULT 0,
  delivered integer NOT NULL DEFAULT 0,
  read integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  PRIMARY KEY (campaign_id, slot)
);
`;
