/**
 * The credit ledger (docs/product.md, Credits and the ledger): immutable entries, a materialized
 * balance per user and credit type moved only with its entries, viewer rows for scoped history, and
 * idempotency keys.
 */
export const sql = /* sql */ `
CREATE TABLE credit_balances (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credit_type text NOT NULL,
  balance bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  total_added bigint NOT NULL DEFAULT 0 CHECK (total_added >= 0),
  total_removed bigint NOT NULL DEFAULT 0 CHECK (total_removed >= 0),
  CHECK (balance = total_added - total_removed),
  PRIMARY KEY (user_id, credit_type)
);

-- One row per movement of one account (the "to" user). A transfer is two rows sharing group_id.
CREATE TABLE credit_transactions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  group_id uuid NOT NULL,
  to_user_id uuid NOT NULL REFERENCES users(id),
  to_email text NOT NULL,
  to_name text NOT NULL,
  by_user_id uuid NOT NULL REFERENCES users(id),
  by_email text NOT NULL,
  by_name text NOT NULL,
  type text NOT NULL CHECK (type IN ('Added', 'Removed')),
  credit_type text NOT NULL CHECK (credit_type IN (
    'Normal Message - domestic', 'Normal Message - international', 'With DP - domestic',
    'With DP - international', 'With CTA - domestic', 'With CTA - international',
    'With DP & CTA - domestic', 'Own Number + DP + CTA')),
  count bigint NOT NULL CHECK (count > 0),
  -- Money in integer paise: rate per credit and count x rate, exact.
  rate_paise bigint CHECK (rate_paise >= 0),
  total_paise bigint CHECK (total_paise >= 0),
  reason text,
  kind text NOT NULL CHECK (kind IN ('mint', 'burn', 'transfer_in', 'transfer_out',
    'campaign_debit', 'campaign_refund', 'carry_forward')),
  campaign_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((rate_paise IS NULL) = (total_paise IS NULL)),
  CHECK (total_paise IS NULL OR total_paise = count * rate_paise)
);
CREATE INDEX credit_transactions_to_idx ON credit_transactions (to_user_id, id);
CREATE INDEX credit_transactions_by_idx ON credit_transactions (by_user_id, id);
CREATE INDEX credit_transactions_created_idx ON credit_transactions (created_at);
CREATE INDEX credit_transactions_group_idx ON credit_transactions (group_id);

-- Entries are never updated; only the data cleanup (which writes carry-forward entries in the
-- same transaction) may delete, by setting herald.ledger_cleanup for its transaction.
CREATE FUNCTION credit_transactions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('herald.ledger_cleanup', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'credit transactions are immutable' USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER credit_transactions_immutable BEFORE UPDATE OR DELETE ON credit_transactions
  FOR EACH ROW EXECUTE FUNCTION credit_transactions_immutable();

-- Which Resellers and Sub-Resellers see an entry: those whose scope holds its "to" or "by"
-- user. Keyset pages of a scoped history are then one ordered index range.
CREATE TABLE credit_transaction_viewers (
  viewer_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  transaction_id bigint NOT NULL REFERENCES credit_transactions(id) ON DELETE CASCADE,
  PRIMARY KEY (viewer_id, transaction_id)
);

CREATE TABLE idempotency_keys (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key text NOT NULL,
  endpoint text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  response jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
`;
