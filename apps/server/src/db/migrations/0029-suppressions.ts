/**
 * Opt-outs (docs/product.md, Opt-outs; docs/delivery.md, Opt-outs):
 * - `suppressions`: the numbers an account's campaigns never send to, digits only as
 *   `campaign_recipients.phone` holds them, once per owner. The pages are keyset by
 *   (created_at, id), per owner and, for the Admin, across owners; the search by part of a
 *   number uses a trigram index where pg_trgm exists (as migration 9), else reads the owner's
 *   rows.
 * - a recipient's new final state `opted_out`: claimed, found on the owner's list, never sent.
 *   The check is added NOT VALID and validated after, so the recipients table is read without
 *   blocking writes to it for the whole scan.
 * - inbound messages find the latest campaign that sent to a number through a provider by
 *   walking its owner's campaigns newest first: `campaigns_sender_created_idx` serves that walk.
 */
export const sql = /* sql */ `
CREATE TABLE suppressions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  phone text NOT NULL CHECK (phone ~ '^[0-9]{7,15}$'),
  source text NOT NULL CHECK (source IN ('manual', 'import', 'keyword', 'provider')),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT suppressions_owner_phone_key UNIQUE (owner_id, phone)
);
CREATE INDEX suppressions_owner_page_idx ON suppressions (owner_id, created_at DESC, id DESC);
CREATE INDEX suppressions_page_idx ON suppressions (created_at DESC, id DESC);
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX suppressions_phone_trgm_idx ON suppressions USING gin (phone gin_trgm_ops);
  END IF;
END
$$;

ALTER TABLE campaign_recipients DROP CONSTRAINT campaign_recipients_state_check;
ALTER TABLE campaign_recipients ADD CONSTRAINT campaign_recipients_state_check
  CHECK (state IN ('queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'opted_out'))
  NOT VALID;
ALTER TABLE campaign_recipients VALIDATE CONSTRAINT campaign_recipients_state_check;

CREATE INDEX campaigns_sender_created_idx ON campaigns (sender_id, created_at DESC)
  WHERE sender_id IS NOT NULL;
`;
