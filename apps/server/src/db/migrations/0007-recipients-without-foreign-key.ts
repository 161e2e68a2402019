/**
 * Campaign recipients without a foreign key to campaigns (docs/performance.md, campaign intake):
 * its check, one lookup per copied row, took 74% of a 1,000,000-recipient ingest (12.9 s against
 * 2.5 s for the same COPY without it). Integrity is kept by two rules instead:
 * - Insert: recipients are written only by the COPY in the transaction that inserts their
 *   campaign, with the id that INSERT returned (campaigns.service.ts insertCampaign ->
 *   campaigns.repo.ts insertRecipients), so they commit or roll back together.
 * - Delete: one place, the triggers below. However a campaign goes (a DELETE, the cascade from
 *   its owner's user row, a TRUNCATE), its recipients go in the same statement. They fire per
 *   statement, so deleting many campaigns costs one set-based DELETE, and a COPY pays nothing.
 */
export const sql = /* sql */ `
ALTER TABLE campaign_recipients DROP CONSTRAINT campaign_recipients_campaign_id_fkey;

CREATE FUNCTION campaign_recipients_follow_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM campaign_recipients r USING gone_campaigns g WHERE r.campaign_id = g.id;
  RETURN NULL;
END $$;
CREATE TRIGGER campaign_recipients_follow_delete AFTER DELETE ON campaigns
  REFERENCING OLD TABLE AS gone_campaigns
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_recipients_follow_delete();

CREATE FUNCTION campaign_recipients_follow_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE campaign_recipients;
  RETURN NULL;
END $$;
CREATE TRIGGER campaign_recipients_follow_truncate AFTER TRUNCATE ON campaigns
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_recipients_follow_truncate();
`;
