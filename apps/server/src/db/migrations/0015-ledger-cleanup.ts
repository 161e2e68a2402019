/**
 * The data cleanup's one sanctioned way to delete ledger entries (docs/product.md, Credits and the
 * ledger).
 *
 * Before this migration the immutability trigger let any session delete once it set
 * `herald.ledger_cleanup`, a setting every role may set. Now a delete also needs the table
 * owner's rights, which the app role never has (db/app-role.ts): only `ledger_cleanup`, a
 * SECURITY DEFINER function owned by the owner, deletes. It writes one carry-forward entry per
 * remaining user and credit type for what it removes, in the same statement, so no remaining
 * balance changes and `balance = total_added - total_removed = Σ Added − Σ Removed` still holds.
 */
export const sql = /* sql */ `
CREATE OR REPLACE FUNCTION credit_transactions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('herald.ledger_cleanup', true) = 'on'
     AND pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE')
  THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'credit transactions are immutable' USING ERRCODE = 'restrict_violation';
END $$;

-- Deletes the entries created in [p_from, p_to) (when p_from is given) and every entry to or by
-- one of p_users; carries what it removed from each remaining user forward as one entry
-- 'Opening balance carried forward' by the Admin p_actor. Answers the number deleted.
CREATE FUNCTION ledger_cleanup(p_from timestamptz, p_to timestamptz, p_users uuid[], p_actor uuid)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  removed bigint;
  gone uuid[] := coalesce(p_users, '{}');
BEGIN
  IF NOT EXISTS (SELECT 1 FROM users WHERE id = p_actor AND role = 'Admin') THEN
    RAISE EXCEPTION 'ledger cleanup needs an Admin' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF p_from IS NOT NULL AND p_to IS NULL THEN
    RAISE EXCEPTION 'ledger cleanup needs both ends of its range' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM set_config('herald.ledger_cleanup', 'on', true);
  WITH doomed AS MATERIALIZED (
    SELECT id, to_user_id, credit_type, type, count, created_at
    FROM credit_transactions
    WHERE (p_from IS NOT NULL AND created_at >= p_from AND created_at < p_to)
       OR to_user_id = ANY (gone) OR by_user_id = ANY (gone)
  ), net AS MATERIALIZED (
    SELECT to_user_id, credit_type,
      coalesce(sum(count) FILTER (WHERE type = 'Added'), 0) AS added,
      coalesce(sum(count) FILTER (WHERE type = 'Removed'), 0) AS removed,
      max(created_at) AS at
    FROM doomed
    WHERE NOT (to_user_id = ANY (gone))
    GROUP BY to_user_id, credit_type
  ), carried AS (
    INSERT INTO credit_transactions (group_id, to_user_id, to_email, to_name, by_user_id,
      by_email, by_name, type, credit_type, count, reason, kind, created_at)
    SELECT gen_random_uuid(), t.id, t.email, t.name, a.id, a.email, a.name,
      CASE WHEN n.added > n.removed THEN 'Added' ELSE 'Removed' END, n.credit_type,
      abs(n.added - n.removed), 'Opening balance carried forward', 'carry_forward', n.at
    FROM net n
    JOIN users t ON t.id = n.to_user_id
    JOIN users a ON a.id = p_actor
    WHERE n.added <> n.removed
    RETURNING id, to_user_id, by_user_id
  ), viewers AS (
    INSERT INTO credit_transaction_viewers (viewer_id, transaction_id)
    SELECT DISTINCT v.id, c.id
    FROM carried c
    JOIN users t ON t.id = c.to_user_id
    JOIN users b ON b.id = c.by_user_id
    JOIN users v ON v.id = ANY (t.ancestors || t.id || b.ancestors || b.id)
    WHERE v.role IN ('Reseller', 'Sub-Reseller') AND NOT (v.id = ANY (gone))
  ), totals AS (
    UPDATE credit_balances cb
    SET total_added = cb.total_added - n.added + greatest(n.added - n.removed, 0),
        total_removed = cb.total_removed - n.removed + greatest(n.removed - n.added, 0)
    FROM net n
    WHERE cb.user_id = n.to_user_id AND cb.credit_type = n.credit_type
  )
  DELETE FROM credit_transactions WHERE id IN (SELECT id FROM doomed);
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('herald.ledger_cleanup', 'off', true);
  RETURN removed;
END $$;
REVOKE ALL ON FUNCTION ledger_cleanup(timestamptz, timestamptz, uuid[], uuid) FROM PUBLIC;
`;
