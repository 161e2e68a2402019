/**
 * Webhooks to customers (docs/api.md, Webhooks).
 * - `webhook_endpoints`: a user's URLs, the events each subscribes to, and its signing secret
 *   sealed with the secret box (lib/secret-box.ts; context `webhook:<id>`). `failing_since` is
 *   the first failed attempt since the last success; 3 days of it disables the endpoint.
 * - `webhook_settings`: a user's low-balance threshold (a debit below it sends
 *   `credits.low_balance`).
 * - `webhook_events`: the outbox. `webhook_emit` writes an event, and one delivery job per
 *   subscribed enabled endpoint, in the transaction of the change it reports, so an event exists
 *   exactly when its change committed; with no subscribed endpoint it writes nothing.
 * - `webhook_deliveries`: one row per attempt, the endpoint's log.
 * - `webhook_recipient_cursors`: how far `recipients.updated` has reported a campaign: the
 *   snapshot of its last scan. A recipient row whose version (xmin) that snapshot did not see
 *   changed since (modules/webhooks/recipient-scan.repo.ts), so the send path writes nothing
 *   extra per recipient.
 * A campaign's status change emits through a trigger, so every path that moves a status (an
 * Admin, the delivery engine, a report upload) reports it.
 */
export const sql = /* sql */ `
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text[] NOT NULL,
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text CHECK (disabled_reason IN ('manual', 'gone', 'failing')),
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_user_idx ON webhook_endpoints (user_id, created_at DESC, id DESC);

CREATE TABLE webhook_settings (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  low_balance_threshold integer CHECK (low_balance_threshold > 0)
);

CREATE TABLE webhook_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_created_idx ON webhook_events (created_at);

CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  ok boolean NOT NULL,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  next_attempt_at timestamptz
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id DESC);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

CREATE TABLE webhook_recipient_cursors (
  campaign_id uuid PRIMARY KEY REFERENCES campaigns(id) ON DELETE CASCADE,
  snapshot text NOT NULL,
  scanned_at timestamptz NOT NULL DEFAULT now(),
  -- The last scan that found a change, and the campaign's status at the last scan (a status
  -- change, such as the end of sending, is scanned at once).
  last_change_at timestamptz,
  status_seen text NOT NULL
);

-- Writes one event of p_user's and a delivery job for each of p_user's enabled endpoints
-- subscribed to p_type (or for p_endpoint alone: a test event); none subscribed, nothing.
-- Answers the event's id, or NULL.
CREATE FUNCTION webhook_emit(p_user uuid, p_type text, p_data jsonb, p_endpoint uuid DEFAULT NULL)
RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  ev uuid;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e
                  WHERE e.user_id = p_user AND e.enabled
                    AND (e.id = p_endpoint OR (p_endpoint IS NULL AND p_type = ANY (e.events)))) THEN
    RETURN NULL;
  END IF;
  INSERT INTO webhook_events (user_id, type, data) VALUES (p_user, p_type, p_data) RETURNING id INTO ev;
  PERFORM graphile_worker.add_job('webhook-deliver',
            json_build_object('eventId', ev, 'endpointId', e.id, 'attempt', 1),
            job_key => 'webhook:' || e.id || ':' || ev, max_attempts => 3)
     FROM webhook_endpoints e
    WHERE e.user_id = p_user AND e.enabled
      AND (e.id = p_endpoint OR (p_endpoint IS NULL AND p_type = ANY (e.events)));
  RETURN ev;
END $$;

-- A campaign that starts sending for an owner watching recipients.updated starts the recipients
-- scan at once (the same job key, so a scan already waiting is moved up, not doubled), rather
-- than at the crontab's next minute.
CREATE FUNCTION webhook_campaign_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit(NEW.user_id, 'campaign.status_changed', jsonb_build_object(
    'campaignId', NEW.id, 'name', NEW.name, 'previousStatus', OLD.status, 'status', NEW.status));
  IF NEW.status = 'Processing' AND EXISTS (
       SELECT 1 FROM webhook_endpoints e
        WHERE e.user_id = NEW.user_id AND e.enabled AND 'recipients.updated' = ANY (e.events)) THEN
    PERFORM graphile_worker.add_job('webhook-recipients-scan', '{}'::json,
              job_key => 'webhook-recipients-scan', max_attempts => 1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER webhook_campaign_status AFTER UPDATE OF status ON campaigns
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION webhook_campaign_status_changed();

-- A row version's xmin as a 64-bit transaction id, taking the epoch from ref (a snapshot's
-- xmax: every visible xmin is below it, and none is older than 2^31 transactions). Frozen and
-- special ids (below 3) become 3, which every snapshot sees. One expression, so the planner
-- inlines it into the scan instead of calling a function per row.
CREATE FUNCTION webhook_xid8(x xid, ref xid8) RETURNS xid8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE
    WHEN x::text::bigint < 3 THEN 3
    WHEN ref::text::bigint - ref::text::bigint % 4294967296 + x::text::bigint >= ref::text::bigint
      THEN ref::text::bigint - ref::text::bigint % 4294967296 + x::text::bigint - 4294967296
    ELSE ref::text::bigint - ref::text::bigint % 4294967296 + x::text::bigint
  END)::text::xid8
$$;
`;
