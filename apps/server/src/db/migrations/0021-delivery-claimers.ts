/**
 * Index-free claims: a claim under a presence key no longer sets a lease in
 * `next_attempt_at`, so the first claim (NULL -> sending) and the write of its answer
 * (sending -> sent) change no indexed column of campaign_recipients and are HOT updates: no
 * new entry in the primary key or migration 17's index per message. Rows in flight without a
 * lease are found through this table instead: the claim records (campaign, key) in the same
 * statement, the key's presence session deletes its pairs when it closes with every row
 * written, and the rows of a key nobody holds any more are given back (due now) by
 * releaseOrphans, which deletes the pair. A handful of rows per campaign being sent.
 */
export const sql = /* sql */ `
CREATE TABLE dispatch_claimers (
  campaign_id uuid NOT NULL,
  key integer NOT NULL,
  PRIMARY KEY (campaign_id, key)
);
`;
