/**
 * Campaign delivery reports and in-app notifications (docs/product.md, Campaigns).
 * Report rows hold only numbers that are recipients of their campaign; an upload replaces
 * them all. `report_count` and `report_delivered` mirror their totals so reads count nothing.
 */
export const sql = /* sql */ `
ALTER TABLE campaigns ADD COLUMN report_count integer NOT NULL DEFAULT 0
  CHECK (report_count >= 0);
-- Rows whose status reads "delivered": the report's totals without counting a million rows.
ALTER TABLE campaigns ADD COLUMN report_delivered integer NOT NULL DEFAULT 0
  CHECK (report_delivered >= 0 AND report_delivered <= report_count);

CREATE TABLE campaign_report_entries (
  campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  phone text NOT NULL,
  status text NOT NULL,
  PRIMARY KEY (campaign_id, phone)
);

CREATE TABLE notifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  event_type text NOT NULL,
  message text NOT NULL,
  link text,
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz
);
CREATE INDEX notifications_user_created_idx ON notifications (user_id, created_at DESC, id DESC);
`;
