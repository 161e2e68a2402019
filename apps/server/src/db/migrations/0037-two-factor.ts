/**
 * Two-factor sign-in (docs/product.md, Two-factor sign-in).
 * - `two_factor_secret`: the confirmed TOTP secret, sealed with the secrets key (lib/secret-box.ts,
 *   bound to the user's row and the field); NULL while two-factor sign-in is off.
 *   `two_factor_pending_secret`: a secret shown for enrolment and not yet confirmed with a code.
 * - `two_factor_last_step`: the time step of the last accepted code; a code of that step or an
 *   earlier one is refused, so a code works once.
 * - Recovery codes are kept as SHA-256 hashes (they carry 80 random bits); each works once.
 * - `security_settings`: one row, the Admin's platform-wide settings.
 */
export const sql = /* sql */ `
ALTER TABLE users
  ADD COLUMN two_factor_secret text,
  ADD COLUMN two_factor_pending_secret text,
  ADD COLUMN two_factor_enabled_at timestamptz,
  ADD COLUMN two_factor_last_step bigint;

CREATE TABLE two_factor_recovery_codes (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash bytea NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

CREATE TABLE security_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  require_two_factor boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO security_settings (id) VALUES (true);
`;
