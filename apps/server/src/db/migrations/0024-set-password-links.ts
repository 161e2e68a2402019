/**
 * A new user gets a mailed link to set a password instead of a password by mail
 * (docs/product.md, Roles and scope): the link's token is random, only its SHA-256 is kept, and
 * it works once until `expires_at`. Mail carries the sender name of the recipient's branding
 * (docs/product.md, Branding), written with the mail so the job sends what the change decided.
 */
export const sql = /* sql */ `
CREATE TABLE password_setup_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_setup_tokens_user_idx ON password_setup_tokens (user_id);

ALTER TABLE mail_outbox ADD COLUMN from_name text;
`;
