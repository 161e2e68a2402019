/**
 * "Save backup to server" builds on the job runner (docs/product.md, Backup and storage): the
 * POST records a save here and answers at once, so a large backup no longer has to finish
 * within one HTTP request. Any instance answers its state from this row. At most one save is
 * queued or building at a time, across every instance (the unique index). A building save whose
 * heartbeat stopped (its instance died) counts as failed; the next POST ends it as failed, which
 * frees the index for a new one.
 */
export const sql = /* sql */ `
CREATE TABLE backup_saves (
  id text PRIMARY KEY,
  state text NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'building', 'done', 'failed')),
  rows bigint NOT NULL DEFAULT 0,
  total_rows bigint NOT NULL DEFAULT 0,
  name text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz
);
CREATE UNIQUE INDEX backup_saves_one_running ON backup_saves ((true))
  WHERE state IN ('queued', 'building');
`;
