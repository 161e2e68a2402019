/**
 * Announcements (docs/product.md, Announcements and alerts). `seq` orders them newest first and is
 * the keyset cursor of every list. A `specific` announcement lists its users in
 * `announcement_targets` (by id, so a renamed email keeps its announcements; a deleted user takes
 * its rows along). "Seen" is one row per user in `announcement_seen`. The image is a file under a
 * generated name in DATA_DIR/uploads/announcements; deleting the row deletes the file.
 */
export const sql = /* sql */ `
CREATE TABLE announcements (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  title text NOT NULL,
  message text NOT NULL,
  link text,
  image text UNIQUE,
  expiry_date timestamptz,
  visibility_type text NOT NULL CHECK (visibility_type IN ('all', 'reseller', 'specific')),
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX announcements_broadcast_idx ON announcements (visibility_type, seq DESC)
  WHERE visibility_type <> 'specific';
CREATE INDEX announcements_created_by_idx ON announcements (created_by) WHERE created_by IS NOT NULL;

CREATE TABLE announcement_targets (
  announcement_id uuid NOT NULL REFERENCES announcements(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (announcement_id, user_id)
);
CREATE INDEX announcement_targets_user_idx ON announcement_targets (user_id, announcement_id);

CREATE TABLE announcement_seen (
  announcement_id uuid NOT NULL REFERENCES announcements(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, announcement_id)
);
CREATE INDEX announcement_seen_announcement_idx ON announcement_seen (announcement_id);
`;
