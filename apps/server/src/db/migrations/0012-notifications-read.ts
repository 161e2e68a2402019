/**
 * The alerts bell (docs/product.md, Announcements and alerts). Notifications get `seq`, an
 * insertion-ordered keyset cursor (newest first), and a partial index holding only unread rows, so
 * a user's unread count and the bell's unread list read a few index entries however many
 * notifications the table holds.
 *
 * Live alerts: triggers NOTIFY `herald_live` on commit with user ids only (never a message):
 * `n:<user id>` when a user's notifications change, `a:<user id>` when a user's announcements
 * change, `a:all` / `a:reseller` for a broadcast announcement (by its audience), `a:*` when one
 * is deleted. Every server instance LISTENs once and tells its own open pages
 * (modules/live/live-hub.ts). Statement triggers send one NOTIFY per user, however many rows.
 */
export const sql = /* sql */ `
ALTER TABLE notifications ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE;
CREATE INDEX notifications_user_seq_idx ON notifications (user_id, seq DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id, seq DESC) WHERE read_at IS NULL;
DROP INDEX notifications_user_created_idx;

CREATE FUNCTION herald_live_notifications() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('herald_live', 'n:' || u) FROM (SELECT DISTINCT user_id AS u FROM changed) s;
  RETURN NULL;
END $$;
CREATE TRIGGER notifications_live_insert AFTER INSERT ON notifications
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION herald_live_notifications();
CREATE TRIGGER notifications_live_update AFTER UPDATE ON notifications
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION herald_live_notifications();

CREATE FUNCTION herald_live_announcement_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('herald_live', 'a:' || u) FROM (SELECT DISTINCT user_id AS u FROM changed) s;
  RETURN NULL;
END $$;
CREATE TRIGGER announcement_targets_live AFTER INSERT ON announcement_targets
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
  EXECUTE FUNCTION herald_live_announcement_users();
CREATE TRIGGER announcement_seen_live AFTER INSERT ON announcement_seen
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
  EXECUTE FUNCTION herald_live_announcement_users();

CREATE FUNCTION herald_live_announcements() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('herald_live', 'a:*');
  ELSIF NEW.visibility_type <> 'specific' THEN
    PERFORM pg_notify('herald_live', 'a:' || NEW.visibility_type);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER announcements_live AFTER INSERT OR DELETE ON announcements
  FOR EACH ROW EXECUTE FUNCTION herald_live_announcements();
`;
