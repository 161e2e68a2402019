/**
 * A name per campaign (up to 80 characters), shown in lists, notifications and ledger reasons
 * instead of its id. New campaigns always store one (the creator's, or the first words of the
 * message: defaultCampaignName in the contract). Campaigns made before get the first 40
 * characters of their message on one line, cut at the last space when that keeps at least 20.
 * The column's default (empty) only serves rows written outside the app, such as test fixtures.
 */
export const sql = /* sql */ `
ALTER TABLE campaigns ADD COLUMN name varchar(80) NOT NULL DEFAULT '';
UPDATE campaigns SET name = CASE
  WHEN char_length(line) <= 40 THEN line
  ELSE coalesce(substring(left(line, 40) from '^(.{20,}) '), left(line, 40)) || '…'
END
FROM (SELECT id AS line_id, btrim(regexp_replace(message, '\\s+', ' ', 'g')) AS line FROM campaigns) m
WHERE campaigns.id = m.line_id;
`;
