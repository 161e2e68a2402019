/**
 * Analytics rollups (docs/performance.md, analytics): read-only reporting over the credit ledger
 * that answers in a few thousand rows however long the ledger grows.
 *
 * - `analytics_daily`: Σ Added and Σ Removed per scope, UTC day and credit type, for every day up
 *   to `analytics_state.folded_through` (W). A scope is the nil uuid (everything: the Admin's) or
 *   a Reseller or Sub-Reseller (entries to itself and its subtree). Days after W are read from the
 *   ledger itself (its created_at index: about a day of entries).
 * - `analytics_user_totals`: Σ Removed per user over the 7, 30 and 90 days ending on W + 1 (days
 *   W-d+2 .. W) and over all days up to W (days = 0): the 'Top Users' ranking's folded part.
 *
 * Exactness: `analytics_fold()` moves W to yesterday (UTC) under a SHARE lock on the ledger, so
 * every entry of a folded day is either committed before the fold reads it or inserted after the
 * fold commits, when the statement triggers below see the new W and add it themselves (a
 * back-dated entry, a carry-forward). Deletes (the data cleanup) and TRUNCATE take their entries
 * out the same way. No trigger touches a folded row on an ordinary entry (dated now), so ledger
 * writes gain no new hot row.
 */
export const sql = /* sql */ `
CREATE TABLE analytics_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  folded_through date NOT NULL
);
INSERT INTO analytics_state (folded_through) VALUES ('-infinity');

CREATE TABLE analytics_daily (
  scope_id uuid NOT NULL,
  day date NOT NULL,
  credit_type text NOT NULL,
  added bigint NOT NULL,
  removed bigint NOT NULL,
  PRIMARY KEY (scope_id, day, credit_type)
);

CREATE TABLE analytics_user_totals (
  days integer NOT NULL CHECK (days IN (0, 7, 30, 90)),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  removed bigint NOT NULL,
  PRIMARY KEY (days, user_id)
);

-- The two statements that add (sign $1 = 1) or take out ($1 = -1) the entries of p_source (a
-- transition table's name, or a subquery over a span of days) falling on folded days (<= $2).
-- Dynamic SQL, so a trigger can run them over its transition table (no temp table: the app
-- role's session must not own a temp schema, db/app-role.ts).
CREATE FUNCTION analytics_apply_sql(p_source text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
SELECT ARRAY[format($q$
  INSERT INTO analytics_daily AS d (scope_id, day, credit_type, added, removed)
  SELECT s.scope_id, a.day, a.credit_type, $1 * sum(a.added), $1 * sum(a.removed)
  FROM (
    SELECT to_user_id, (created_at AT TIME ZONE 'UTC')::date AS day, credit_type,
           coalesce(sum(count) FILTER (WHERE type = 'Added'), 0) AS added,
           coalesce(sum(count) FILTER (WHERE type = 'Removed'), 0) AS removed
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
    SET added = d.added + EXCLUDED.added, removed = d.removed + EXCLUDED.removed$q$, p_source),
format($q$
  INSERT INTO analytics_user_totals AS t (days, user_id, removed)
  SELECT w.days, r.to_user_id, $1 * sum(r.count)
  FROM %s r
  JOIN (VALUES (0), (7), (30), (90)) w(days)
    ON w.days = 0 OR (r.created_at AT TIME ZONE 'UTC')::date >= $2 - w.days + 2
  WHERE r.type = 'Removed' AND (r.created_at AT TIME ZONE 'UTC')::date <= $2
    AND EXISTS (SELECT 1 FROM users u WHERE u.id = r.to_user_id)
  GROUP BY 1, 2
  ON CONFLICT (days, user_id) DO UPDATE SET removed = t.removed + EXCLUDED.removed$q$, p_source)]
$$;

CREATE FUNCTION analytics_ledger_changed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp AS $$
DECLARE
  w date := (SELECT folded_through FROM analytics_state);
  q text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM analytics_daily;
    DELETE FROM analytics_user_totals;
    RETURN NULL;
  END IF;
  -- An ordinary entry is dated now, after W: nothing to do.
  IF NOT EXISTS (SELECT 1 FROM changed WHERE (created_at AT TIME ZONE 'UTC')::date <= w) THEN
    RETURN NULL;
  END IF;
  -- Two such statements at once (a bulk load on two connections, a cleanup beside one) would
  -- upsert the same rollup rows in different orders and deadlock: they take turns. (No fold can
  -- run meanwhile: this statement's lock on the ledger holds its SHARE lock off.)
  PERFORM pg_advisory_xact_lock(14, 0);
  FOREACH q IN ARRAY analytics_apply_sql('changed') LOOP
    EXECUTE q USING CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END, w;
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER analytics_ledger_inserted AFTER INSERT ON credit_transactions
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_ledger_changed();
CREATE TRIGGER analytics_ledger_deleted AFTER DELETE ON credit_transactions
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_ledger_changed();
CREATE TRIGGER analytics_ledger_truncated AFTER TRUNCATE ON credit_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_ledger_changed();

-- Folds every day up to yesterday (UTC; p_upto: an earlier day, for tests) and answers W. Called
-- by the analytics reads first; a no-op once today's fold is done. The SHARE lock waits for
-- in-flight ledger writes and holds new ones back for the fold's few milliseconds, once a day;
-- when it is not granted within lock_timeout (a long ledger write), the fold is left for the
-- next read and this one answers the old W (the reads then take more days from the ledger).
CREATE FUNCTION analytics_fold(p_upto date DEFAULT NULL) RETURNS date LANGUAGE plpgsql
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
    -- The new days, then the 7/30/90-day totals afresh for their new windows.
    DELETE FROM analytics_user_totals WHERE days > 0;
    FOREACH q IN ARRAY analytics_apply_sql(format(
      '(SELECT * FROM credit_transactions WHERE created_at >= %L AND created_at < %L)',
      (w + 1)::timestamp AT TIME ZONE 'UTC', (upto + 1)::timestamp AT TIME ZONE 'UTC'))
    LOOP
      EXECUTE q USING 1, upto;
    END LOOP;
    -- analytics_apply added only the new days to the 7/30/90 totals: add the rest of each window.
    INSERT INTO analytics_user_totals AS t (days, user_id, removed)
    SELECT w2.days, r.to_user_id, sum(r.count)
    FROM (VALUES (7), (30), (90)) w2(days)
    JOIN credit_transactions r
      ON r.created_at >= ((upto - w2.days + 2)::timestamp AT TIME ZONE 'UTC')
     AND r.created_at < ((w + 1)::timestamp AT TIME ZONE 'UTC')
    WHERE r.type = 'Removed'
    GROUP BY 1, 2
    ON CONFLICT (days, user_id) DO UPDATE SET removed = t.removed + EXCLUDED.removed;
    UPDATE analytics_state SET folded_through = upto;
    RETURN upto;
  EXCEPTION WHEN lock_not_available THEN
    RETURN old;
  END;
END $$;

SELECT analytics_fold();
`;
