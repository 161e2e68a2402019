/**
 * Real provider adapters next to the simulator (docs/delivery.md, Providers):
 * - a sender may be a WhatsApp Cloud API number or an SMS gateway shaped like Jasmin or Twilio;
 * - `provider_media`: a campaign's media uploaded once per sender and campaign (WhatsApp sends
 *   media by the id its upload returned). The row is claimed before the upload (media_id NULL),
 *   so two instances starting the same campaign upload once; `uploaded_at` tells when the
 *   provider forgets the id and it must be uploaded again;
 * - `provider_message_refs`: for providers whose status callbacks name a message only by their
 *   own id (Jasmin's, Twilio's SID), which recipient that id was. A table of its own rather than
 *   an index on campaign_recipients.provider_message_id: an indexed column written by every
 *   'sent' answer would make that update non-HOT for every provider, the simulator's included
 *   (docs/delivery.md, Claims and batches), where only these providers need the lookup.
 */
export const sql = /* sql */ `
ALTER TABLE senders DROP CONSTRAINT senders_provider_check;
ALTER TABLE senders ADD CONSTRAINT senders_provider_check
  CHECK (provider IN ('simulator', 'whatsapp_cloud', 'jasmin', 'twilio'));

CREATE TABLE provider_media (
  -- The provider-side sender the upload belongs to (WhatsApp: the phone number id).
  sender_key text NOT NULL,
  campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  -- The file's FileStore key.
  media_key text NOT NULL,
  -- NULL while the instance that claimed the row uploads.
  media_id text,
  uploaded_at timestamptz,
  -- Who claimed the upload (a random token) and when: a claim left by a dead instance is
  -- taken over once stale.
  claim text NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (sender_key, campaign_id, media_key)
);

CREATE TABLE provider_message_refs (
  provider text NOT NULL,
  provider_message_id text NOT NULL,
  campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  phone text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, provider_message_id)
);
CREATE INDEX provider_message_refs_campaign_idx ON provider_message_refs (campaign_id);
`;
