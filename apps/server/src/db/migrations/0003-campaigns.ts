/**
 * Campaigns (docs/product.md, Campaigns): the campaign row, its recipients as rows (up to
 * 1,000,000, never one string) and its media files, stored on disk under generated names.
 */
export const sql = /* sql */ `
CREATE TABLE campaigns (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_by uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credit_type text NOT NULL CHECK (credit_type IN (
    'Normal Message - domestic', 'Normal Message - international', 'With DP - domestic',
    'With DP - international', 'With CTA - domestic', 'With CTA - international',
    'With DP & CTA - domestic', 'Own Number + DP + CTA')),
  message text NOT NULL,
  country_name text,
  country_code text,
  cta_call text,
  cta_call_text text,
  cta_url text,
  cta_url_text text,
  status text NOT NULL DEFAULT 'Submitted' CHECK (status IN ('Submitted', 'Pending Approval',
    'Approved', 'Processing', 'Completed', 'Rejected', 'Report Generated',
    'Cancellation Requested', 'Cancelled')),
  recipient_count integer NOT NULL CHECK (recipient_count > 0),
  -- Whether the owner's balance currently carries the debit (refunds clear it, exactly once).
  charged boolean NOT NULL DEFAULT true,
  charged_count integer NOT NULL CHECK (charged_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX campaigns_user_created_idx ON campaigns (user_id, created_at DESC, id DESC);
CREATE INDEX campaigns_created_idx ON campaigns (created_at DESC, id DESC);

CREATE TABLE campaign_recipients (
  campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  phone text NOT NULL,
  PRIMARY KEY (campaign_id, phone)
);

CREATE TABLE campaign_files (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('dp', 'singleCreative', 'image', 'pdf', 'video', 'audio')),
  stored_name text NOT NULL UNIQUE,
  original_name text NOT NULL,
  mime text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  position integer NOT NULL DEFAULT 0
);
CREATE INDEX campaign_files_campaign_idx ON campaign_files (campaign_id, position);
`;
