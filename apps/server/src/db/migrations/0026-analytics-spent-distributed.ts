/**
 * Analytics tell credits spent on campaigns from credits handed down the tree (docs/product.md,
 * Dashboards and analytics). Migration 0014's rollups summed every Removed entry as "used", so
 * a Reseller who only gave credits to its users topped "Top Users" without sending anything.
 *
 * - `analytics_daily` gains, per scope, day and credit type:
 *   `used`: Σ campaign_debit − Σ campaign_refund on the scope's accounts;
 *   `distributed`: credits moved down the tree onto an account of the scope other than the
 *   scope's own Reseller or Sub-Reseller: mints and given transfers (transfer_in by someone else)
 *   add, burns and taken-back credits (transfer_out by someone else) subtract.
 * - `analytics_user_totals.removed` becomes `used`: the 'Top Users' ranking counts campaigns only.
 *
 * The rollups are then rebuilt from the ledger (the fold from nothing), so old entries and new
 * ones are counted the same way. The triggers of 0014 keep calling analytics_apply_sql(), which
 * this migration replaces, so they need no change.
 */
export const sql = /* sql */ `
ALTER TABLE analytics_daily
  ADD COLUMN used bigint NOT NULL DEFAULT 0,
  ADD COLUMN distributed bigint NOT NULL DEFAULT 0;
ALTER TABLE analytics_user_totals RENAME COLUMN removed TO used;

-- One entry's share of "used" and of "distributed" (on its own account), by its kind.
CREATE FUNCTION analytics_used(p_kind text, p_count bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE p_kind WHEN 'campaign_debit' THEN p_count WHEN 'campaign_refund' THEN -p_count
         ELSE 0 END
$$;
CREATE FUNCTION analytics_distributed(p_kind text, p_count bigint, p_to uuid, p_by uuid)
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN p_kind = 'mint' THEN p_count
    WHEN p_kind = 'burn' THEN -p_count
    WHEN p_kind = 'transfer_in' AND p_to <> p_by THEN p_count
    WHEN p_kind = 'transfer_out' AND p_to <> p_by THEN -p_count
    ELSE 0 END
$$;

CREATE OR REPLACE FUNCTION analytics_apply_sql(p_source text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
SELECT ARRAY[format($q$
  INSERT INTO analytics_daily AS d (scope_id, day, credit_type, added, removed, used, distributed)
  SELECT s.scope_id, a.day, a.credit_type, $1 * sum(a.added), $1 * sum(a.removed),
         $1 * sum(a.used),
         $1 * sum(CASE WHEN s.scope_id = a.to_user_id THEN 0 ELSE a.distributed END)
  FROM (
    SELECT to_user_id, (created_at AT TIME ZONE 'UTC')::date AS day, credit_type,
           coalesce(sum(count) FILTER (WHERE type = 'Added'), 0) AS added,
           coalesce(sum(count) FILTER (WHERE type = 'Removed'), 0) AS removed,
           coalesce(sum(analytics_used(kind, count)), 0) AS used,
           coalesce(sum(analytics_distributed(kind, count, to_user_id, by_user_id)), 0)
             AS distributed
    FROM %s r WHERE (created_at AT TIME ZONE 'UTC')::date <= $2
    GROUP BY 1, 2, 3
  ) a
  JOIN users u ON u.id = a.to_user_id
  CROSS JOIN LATERAL (
    SELECT '00000000-0000-0000-0000-000000000000'::uuid
    UNION ALL
    SELECT x.id FROM users x
    WHERE x.id = ANY (u.ancestors || u.id) AND x.role IN ('Reseller', 'Sub-Reseller')
  ) s(scope_id)
  GROUP BY 1, 2, 3
  ON CONFLICT (scope_id, day, credit_type) DO UPDATE
    SET added = d.added + EXCLUDED.added, removed = d.removed + EXCLUDED.removed,
        used = d.used + EXCLUDED.used, distributed = d.distributed + EXCLUDED.distributed$q$,
  p_source),
format($q$
  INSERT INTO analytics_user_totals AS t (days, user_id, used)
  SELECT w.days, r.to_user_id, $1 * sum(analytics_used(r.kind, r.count))
  FROM %s r
  JOIN (VALUES (0), (7), (30), (90)) w(days)
    ON w.days = 0 OR (r.created_at AT TIME ZONE 'UTC')::date >= $2 - w.days + 2
  WHERE r.kind IN ('campaign_debit', 'campaign_refund')
    AND (r.created_at AT TIME ZONE 'UTC')::date <= $2
    AND EXISTS (SELECT 1 FROM users u WHERE u.id = r.to_user_id)
  GROUP BY 1, 2
  ON CONFLICT (days, user_id) DO UPDATE SET used = t.used + EXCLUDED.used$q$, p_source)]
$$;

-- As in 0014, with the 7/30/90-day totals' rest of each window counting campaigns only.
CREATE OR REPLACE FUNCTION analytics_fold(p_upto date DEFAULT NULL) RETURNS date LANGUAGE plpgsql
SECURITY DEFINER SET search_path = public, pg_temp SET lock_timeout = '1s' AS $$
DECLARE
  w date;
  q text;
  upto date := least(p_upto, (clock_timestamp() AT TIME ZONE 'UTC')::date - 1);
  old date;
BEGIN
  SELECT folded_through INTO w FROM analytics_state;
  IF w >= upto THEN RETURN w; END IF;
  old := w;
  BEGIN
    LOCK TABLE credit_transactions IN SHARE MODE;
    SELECT folded_through INTO w FROM analytics_state FOR UPDATE;
    IF w >= upto THEN RETURN w; END IF;
    DELETE FROM analytics_user_totals WHERE days > 0;
    FOREACH q IN ARRAY analytics_apply_sql(format(
      '(SELECT * FROM credit_transactions WHERE created_at >= %L AND created_at < %L)',
      (w + 1)::timestamp AT TIME ZONE 'UTC', (upto + 1)::timestamp AT TIME ZONE 'UTC'))
    LOOP
      EXECUTE q USING 1, upto;
    END LOOP;
    INSERT INTO analytics_user_totals AS t (days, user_id, used)
    SELECT w2.days, r.to_user_id, sum(analytics_used(r.kind, r.count))
    FROM (VALUES (7), (30), (90)) w2(days)
    JOIN credit_transactions r
      ON r.created_at >= ((upto - w2.days + 2)::timestamp AT TIME ZONE 'UTC')
     AND r.created_at < ((w + 1)::timestamp AT TIME ZONE 'UTC')
    WHERE r.kind IN ('campaign_debit', 'campaign_refund')
    GROUP BY 1, 2
    ON CONFLICT (days, user_id) DO UPDATE SET used = t.used + EXCLUDED.used;
    UPDATE analytics_state SET folded_through = upto;
    RETURN upto;
  EXCEPTION WHEN lock_not_available THEN
    RETURN old;
  END;
END $$;

-- Rebuilt from the ledger: every folded day is counted again with the new columns.
DELETE FROM analytics_daily;
DELETE FROM analytics_user_totals;
UPDATE analytics_state SET folded_through = '-infinity';
SELECT analytics_fold();
`;
