/** Users, password resets, rate limits. */
export const sql = /* sql */ `
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL CHECK (email = lower(email)),
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('Admin', 'Reseller', 'Sub-Reseller', 'User')),
  status text NOT NULL DEFAULT 'Active' CHECK (status IN ('Active', 'Blocked')),
  password_hash text NOT NULL,
  -- Bumped whenever every token of the user must stop working (password change, reset).
  token_version integer NOT NULL DEFAULT 0,
  created_by uuid REFERENCES users(id) ON DELETE RESTRICT,
  -- Every creator up the chain, nearest last; a subtree query is ancestors @> ARRAY[id].
  ancestors uuid[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  own_number text,
  company_name text,
  company_logo text,
  contact_person text,
  contact_person_phone text,
  mobile text,
  firm_name text,
  address text,
  city text,
  state text,
  pincode text
);
CREATE UNIQUE INDEX users_email_key ON users (email);
CREATE INDEX users_ancestors_idx ON users USING gin (ancestors);
CREATE INDEX users_created_by_idx ON users (created_by);
CREATE INDEX users_created_at_idx ON users (created_at DESC, id DESC);

CREATE TABLE password_resets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  otp_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_resets_user_idx ON password_resets (user_id, created_at DESC);

CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  hits integer NOT NULL,
  window_start timestamptz NOT NULL
);
`;
