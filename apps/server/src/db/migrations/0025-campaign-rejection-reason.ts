/**
 * The Admin's reason for rejecting a campaign (docs/product.md, Campaigns): written by Reject,
 * cleared by any later status change, shown to the owner in the campaign details.
 */
export const sql = /* sql */ `
ALTER TABLE campaigns
  ADD COLUMN rejection_reason text
  CONSTRAINT campaigns_rejection_reason_length CHECK (char_length(rejection_reason) <= 500);
`;
