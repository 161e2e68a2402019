/**
 * Providers in the database (docs/delivery.md, Providers in the database):
 * - `providers`: an account at a provider (WhatsApp Cloud API, an SMS gateway, a simulator) with
 *   its plain settings and its secrets, each sealed with AES-256-GCM (lib/secret-box.ts) under
 *   the context `provider:<id>:<field>`, beside their last 4 characters for the screens. The
 *   callback token (the unguessable segment of its callback URL) is sealed the same way. `key`
 *   names the provider where the engine keeps a provider's name (adapters, provider_message_refs):
 *   'simulator' for the built-in simulator, as before this migration, its id for any other;
 * - a sender belongs to a provider and has its provider-side address (WhatsApp's phone number
 *   id, an SMS sender id); the built-in simulator takes the senders that existed;
 * - `credit_routes`: which sender each credit type goes through; a type without a row goes
 *   through the default sender.
 */
export const sql = /* sql */ `
CREATE TABLE providers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  key text GENERATED ALWAYS AS (CASE WHEN builtin THEN 'simulator' ELSE id::text END) STORED UNIQUE,
  name text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('simulator', 'whatsapp_cloud', 'jasmin', 'twilio')),
  -- The simulator the server's own settings set up: its settings and secrets are not kept here.
  builtin boolean NOT NULL DEFAULT false,
  enabled boolean NOT NULL DEFAULT true,
  settings jsonb NOT NULL DEFAULT '{}',
  secrets jsonb NOT NULL DEFAULT '{}',
  secret_hints jsonb NOT NULL DEFAULT '{}',
  callback_token text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX providers_one_builtin ON providers ((true)) WHERE builtin;
INSERT INTO providers (name, kind, builtin) VALUES ('Simulator', 'simulator', true);

ALTER TABLE senders
  ADD COLUMN provider_id uuid REFERENCES providers(id) ON DELETE RESTRICT,
  ADD COLUMN address text NOT NULL DEFAULT '';
UPDATE senders SET provider_id = (SELECT id FROM providers WHERE builtin);
ALTER TABLE senders ALTER COLUMN provider_id SET NOT NULL;
ALTER TABLE senders DROP COLUMN provider;
CREATE INDEX senders_provider_idx ON senders (provider_id);

CREATE TABLE credit_routes (
  credit_type text PRIMARY KEY,
  sender_id uuid NOT NULL REFERENCES senders(id) ON DELETE CASCADE
);
CREATE INDEX credit_routes_sender_idx ON credit_routes (sender_id);
`;
