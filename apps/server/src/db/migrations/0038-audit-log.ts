/**
 * The audit log (docs/audit.md): one row per action that changed money, access or data, written
 * in the same transaction as the change.
 *
 * - Append only: a trigger refuses UPDATE and DELETE for every role. Retention is the one way
 *   rows leave: `audit_log_prune`, a SECURITY DEFINER function owned by the table owner (which
 *   the app role never is, db/app-role.ts), deletes only entries older than the retention the
 *   Admin set in `security_settings.audit_retention_days` (default 400 days, at least 90), so no
 *   caller can remove an entry early.
 * - `scope`: the users whose subtree view shows the entry: the actor and the subject user (the
 *   account the changed thing belongs to) with their ancestors. A Reseller's view is
 *   `scope @> ARRAY[reseller]`, held by a GIN index.
 * - `changes`: the changed fields, `{ field: { before, after } }`; never a password, token or
 *   secret (the writers leave them out, audit.repo.ts).
 */
export const sql = /* sql */ `
CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  actor_user_id uuid,
  actor_api_key_id uuid,
  actor_label text NOT NULL,
  actor_role text,
  ip text,
  user_agent text,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text,
  target_label text,
  subject_user_id uuid,
  scope uuid[] NOT NULL DEFAULT '{}',
  changes jsonb
);
CREATE INDEX audit_log_at_idx ON audit_log (at);
CREATE INDEX audit_log_scope_idx ON audit_log USING gin (scope);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_user_id, id);
CREATE INDEX audit_log_action_idx ON audit_log (action, id);
CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id, id);

CREATE FUNCTION audit_log_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('herald.audit_prune', true) = 'on'
     AND pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE')
  THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit log entries are immutable' USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER audit_log_immutable BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_immutable();
-- TRUNCATE skips row triggers; the app role may not truncate, and neither may anyone else here.
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_immutable();

ALTER TABLE security_settings
  ADD COLUMN audit_retention_days integer NOT NULL DEFAULT 400
    CHECK (audit_retention_days BETWEEN 90 AND 3650);

-- Deletes at most p_limit entries older than the retention; answers how many it deleted.
CREATE FUNCTION audit_log_prune(p_limit integer) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  removed bigint;
  keep_days integer;
BEGIN
  SELECT audit_retention_days INTO keep_days FROM security_settings;
  PERFORM set_config('herald.audit_prune', 'on', true);
  DELETE FROM audit_log WHERE id IN (
    SELECT id FROM audit_log
    WHERE at < now() - make_interval(days => keep_days)
    ORDER BY at LIMIT greatest(p_limit, 0)
  );
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('herald.audit_prune', 'off', true);
  RETURN removed;
END $$;
REVOKE ALL ON FUNCTION audit_log_prune(integer) FROM PUBLIC;
`;
