/**
 * User search (GET /api/users?search=): trigram indexes let `name ILIKE '%term%'` and the same on
 * email use an index instead of reading every user. pg_trgm ships with the embedded PostgreSQL
 * and is a trusted extension; on a server without it the search still works, unindexed.
 * `?role=` (the ticket screen's reseller list) reads the few users of one role in list order.
 */
export const sql = /* sql */ `
CREATE INDEX users_role_created_at_idx ON users (role, created_at DESC, id DESC);
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX users_name_trgm_idx ON users USING gin (name gin_trgm_ops);
    CREATE INDEX users_email_trgm_idx ON users USING gin (email gin_trgm_ops);
  END IF;
END
$$;
`;
