/**
 * API keys (docs/api.md): a user's keys for the public API.
 * - `hash` is the SHA-256 of the whole key (keys carry 256 random bits, so a plain hash is enough
 *   and lets the auth hook find the row by it); the key itself is never stored, only `last4`.
 * - `token_version` is the user's token version when the key was made: a block or a password
 *   change raises the user's, which ends the key as it ends sessions. Deleting the user deletes
 *   its keys; revoking a key deletes its row.
 * - `last_used_at` is written at most once a minute per key.
 */
export const sql = /* sql */ `
CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('live', 'test')),
  hash bytea NOT NULL,
  last4 text NOT NULL,
  token_version integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  CONSTRAINT api_keys_hash_key UNIQUE (hash)
);
CREATE INDEX api_keys_user_page_idx ON api_keys (user_id, created_at DESC, id DESC);
CREATE INDEX api_keys_page_idx ON api_keys (created_at DESC, id DESC);
`;
