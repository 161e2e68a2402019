/**
 * Scheduled sends (docs/delivery.md, Scheduled sends): a campaign's `send_at`, in UTC; null
 * means "send when approved". The partial index serves the sweep that starts any Approved
 * campaign whose time has come (a safety net behind each campaign's own job).
 */
export const sql = /* sql */ `
ALTER TABLE campaigns ADD COLUMN send_at timestamptz;
CREATE INDEX campaigns_scheduled_idx ON campaigns (send_at)
  WHERE status = 'Approved' AND send_at IS NOT NULL;
`;
