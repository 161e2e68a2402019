/**
 * "Generate download" builds on the job runner (background work runs on the one job runner:
 * docs/architecture.md, Background work): the build's state lives here, not in one instance's
 * memory, so the POST, the progress polls and the GET of the file may each reach a different
 * instance (the file is under the shared DATA_DIR). At most one build runs at a time: a second
 * request joins it. A build whose heartbeat stopped (its instance died) counts as failed.
 */
export const sql = /* sql */ `
CREATE TABLE backup_downloads (
  id text PRIMARY KEY,
  state text NOT NULL DEFAULT 'building' CHECK (state IN ('building', 'ready', 'failed')),
  rows bigint NOT NULL DEFAULT 0,
  total_rows bigint NOT NULL,
  filename text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz
);
CREATE UNIQUE INDEX backup_downloads_one_building ON backup_downloads ((true))
  WHERE state = 'building';
`;
