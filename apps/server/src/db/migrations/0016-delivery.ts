/**
 * The delivery engine (docs/architecture.md, Delivery): senders with their rate and daily limits, a
 * token bucket per sender shared by every instance, and each recipient's delivery state as the
 * source of truth (queue jobs carry only ids).
 *
 * Recipient state: NULL until the dispatcher claims the row (a campaign delivered by hand never
 * leaves NULL), then queued (waiting for a retry at `next_attempt_at`), sending (claimed, in
 * flight), sent, delivered, read or failed. A state only moves forward, so repeated and
 * out-of-order status events change nothing twice. The campaign keeps the running totals, so a
 * progress read counts nothing, and a keyset cursor over phones (`dispatch_cursor`) records how
 * far the first pass has claimed: a restart resumes after it.
 */
export const sql = /* sql */ `
CREATE TABLE senders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE,
  provider text NOT NULL CHECK (provider IN ('simulator')),
  -- Messages per second across every instance together.
  rate_per_second integer NOT NULL CHECK (rate_per_second BETWEEN 1 AND 100000),
  -- Messages per UTC day; NULL is unlimited. Reaching it pauses campaigns until the next day.
  daily_limit integer CHECK (daily_limit > 0),
  is_default boolean NOT NULL DEFAULT false,
  -- The shared token bucket: tokens at bucket_at; refilled at rate_per_second up to one second.
  bucket_tokens double precision NOT NULL DEFAULT 0,
  bucket_at timestamptz NOT NULL DEFAULT now(),
  -- A provider's rate-limit answer slows the whole sender until then.
  throttled_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX senders_one_default ON senders ((true)) WHERE is_default;

CREATE TABLE sender_daily_usage (
  sender_id uuid NOT NULL REFERENCES senders(id) ON DELETE CASCADE,
  day date NOT NULL,
  sent integer NOT NULL DEFAULT 0 CHECK (sent >= 0),
  PRIMARY KEY (sender_id, day)
);

INSERT INTO senders (name, provider, rate_per_second, is_default)
VALUES ('Simulator', 'simulator', 80, true);

ALTER TABLE campaigns
  ADD COLUMN sender_id uuid REFERENCES senders(id) ON DELETE SET NULL,
  ADD COLUMN simulated boolean NOT NULL DEFAULT false,
  ADD COLUMN dispatch_state text
    CHECK (dispatch_state IN ('running', 'paused', 'waiting', 'cancelled', 'done')),
  ADD COLUMN dispatch_cursor text,
  ADD COLUMN dispatch_resume_at timestamptz,
  ADD COLUMN dispatch_heartbeat_at timestamptz,
  -- How many recipients are in each state now (a change moves one from its old state's count
  -- to its new one's), written with the batch that changes them.
  ADD COLUMN sent_count integer NOT NULL DEFAULT 0 CHECK (sent_count >= 0),
  ADD COLUMN delivered_count integer NOT NULL DEFAULT 0 CHECK (delivered_count >= 0),
  ADD COLUMN read_count integer NOT NULL DEFAULT 0 CHECK (read_count >= 0),
  ADD COLUMN failed_count integer NOT NULL DEFAULT 0 CHECK (failed_count >= 0),
  -- Credits the engine gave back (failed and unsent); written once, when the campaign ends.
  ADD COLUMN delivery_refunded integer NOT NULL DEFAULT 0 CHECK (delivery_refunded >= 0),
  ADD COLUMN delivery_settled boolean NOT NULL DEFAULT false;
CREATE INDEX campaigns_dispatch_idx ON campaigns (dispatch_state)
  WHERE dispatch_state IN ('running', 'waiting');

ALTER TABLE campaign_recipients
  ADD COLUMN state text
    CHECK (state IN ('queued', 'sending', 'sent', 'delivered', 'read', 'failed')),
  ADD COLUMN attempts smallint NOT NULL DEFAULT 0,
  ADD COLUMN provider_message_id text,
  ADD COLUMN error_code text,
  ADD COLUMN error_text text,
  ADD COLUMN next_attempt_at timestamptz,
  ADD COLUMN state_at timestamptz,
  ADD COLUMN sent_at timestamptz,
  ADD COLUMN delivered_at timestamptz,
  ADD COLUMN read_at timestamptz,
  ADD COLUMN failed_at timestamptz;
-- Retries due and rows in flight are found without scanning a million finished rows.
CREATE INDEX campaign_recipients_retry_idx ON campaign_recipients (campaign_id, next_attempt_at)
  WHERE state = 'queued';
CREATE INDEX campaign_recipients_sending_idx ON campaign_recipients (campaign_id, state_at)
  WHERE state = 'sending';
`;
