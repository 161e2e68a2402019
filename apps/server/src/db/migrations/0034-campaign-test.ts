/**
 * Test campaigns (docs/api.md, Test keys): a campaign created with a `hk_test_` key is marked
 * `test`. It charged nothing (`charged_count` 0, no ledger entry) and its sending goes to the
 * built-in simulator whatever its credit type is routed to.
 */
export const sql = /* sql */ `
ALTER TABLE campaigns ADD COLUMN test boolean NOT NULL DEFAULT false;
`;
