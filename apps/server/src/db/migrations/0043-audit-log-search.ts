/**
 * The Audit Log's text filters (docs/audit.md, The Audit Log screen): trigram indexes let
 * `actor_label ILIKE '%term%'` and the same on `target_label` use an index instead of reading
 * the whole log. pg_trgm is created where it exists (as migration 9); without it the filters
 * still work, unindexed.
 */
export const sql = /* sql */ `
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX audit_log_actor_label_trgm_idx ON audit_log USING gin (actor_label gin_trgm_ops);
    CREATE INDEX audit_log_target_label_trgm_idx ON audit_log USING gin (target_label gin_trgm_ops);
  END IF;
END
$$;
`;
