import { sql } from 'kysely';
import type { Role } from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';

/**
 * In-app notifications (docs/product.md, Announcements and alerts): queries only. The writes run in the caller's
 * transaction (other modules reach them through notifications.service.ts); the reads serve the
 * bell. Every read and update names the owner, so another's notification is never touched.
 */

/** What a notification is about; the bell may pick an icon by it. */
export type NotificationEvent =
  | 'campaign_status'
  | 'campaign_report'
  | 'credits'
  | 'ticket_reply'
  | 'ticket_status'
  | 'ticket_assigned'
  | 'ticket_escalated'
  | 'campaign_approval'
  | 'ticket_created'
  | 'webhook';

export interface NewNotification {
  userId: string;
  eventType: NotificationEvent;
  message: string;
  /** The screen that shows the change (a web route such as '/campaigns'). */
  link: string | null;
}

export async function insertNotification(tx: Tx, n: NewNotification): Promise<void> {
  await tx
    .insertInto('notifications')
    .values({ user_id: n.userId, event_type: n.eventType, message: n.message, link: n.link })
    .execute();
}

/** One notification to each of `userIds` (distinct), in one statement. */
export async function insertForUsers(
  tx: Tx,
  userIds: readonly string[],
  n: Omit<NewNotification, 'userId'>,
): Promise<void> {
  if (userIds.length === 0) return;
  await sql`
    INSERT INTO notifications (user_id, event_type, message, link)
    SELECT DISTINCT u, ${n.eventType}, ${n.message}, ${n.link}
      FROM unnest(${[...userIds]}::uuid[]) AS u`.execute(tx);
}

/** One notification to every Active user of `role` but `exceptUserId`, in one statement. */
export async function insertForRole(
  tx: Tx,
  role: Role,
  n: Omit<NewNotification, 'userId'>,
  exceptUserId: string | null = null,
): Promise<void> {
  await sql`
    INSERT INTO notifications (user_id, event_type, message, link)
    SELECT id, ${n.eventType}, ${n.message}, ${n.link}
      FROM users WHERE role = ${role} AND status = 'Active'
       AND id IS DISTINCT FROM ${exceptUserId}::uuid`.execute(tx);
}

export interface NotificationRow {
  id: string;
  seq: string;
  event_type: string;
  message: string;
  link: string | null;
  created_at: Date;
  read_at: Date | null;
}

/** One page of a user's notifications, newest first; `limit + 1` rows tell whether more follow. */
export function listForUser(
  db: DbOrTx,
  userId: string,
  q: { cursor?: string | undefined; limit: number; unread?: boolean },
): Promise<NotificationRow[]> {
  let query = db
    .selectFrom('notifications')
    .select(['id', 'seq', 'event_type', 'message', 'link', 'created_at', 'read_at'])
    .where('user_id', '=', userId);
  if (q.cursor) query = query.where('seq', '<', q.cursor);
  if (q.unread) query = query.where('read_at', 'is', null);
  return query
    .orderBy('seq', 'desc')
    .limit(q.limit + 1)
    .execute();
}

/** The user's unread count: an index-only count over the partial unread index (migration 0012). */
export async function countUnread(db: DbOrTx, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks one of the user's notifications read; false when it is not theirs or does not exist. */
export async function markRead(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  const found = await db
    .selectFrom('notifications')
    .select('read_at')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!found) return false;
  // Already read: nothing to write (and no live event to send).
  if (found.read_at === null) {
    await db
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .execute();
  }
  return true;
}

/** Marks every unread notification of the user read. */
export async function markAllRead(db: DbOrTx, userId: string): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: new Date() })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .execute();
}
