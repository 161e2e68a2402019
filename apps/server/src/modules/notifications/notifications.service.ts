import {
  server as msg,
  type NotificationList,
  type NotificationListFilters,
  type Role,
} from '@herald/contract';
import type { Db, Tx } from '../../db/database.js';
import { notFound } from '../../lib/app-error.js';
import * as repo from './notifications.repo.js';

/**
 * The notifications module's public face for other modules
 * (docs/product.md, Announcements and alerts). Each notification is written in the caller's
 * transaction, so it exists exactly when the change it announces committed.
 */

export type { NewNotification, NotificationEvent } from './notifications.repo.js';

/** Tells one user about a change. */
export function notify(tx: Tx, n: repo.NewNotification): Promise<void> {
  return repo.insertNotification(tx, n);
}

/** Tells each of several users about one change, once each (duplicates are dropped). */
export function notifyUsers(
  tx: Tx,
  userIds: readonly string[],
  n: Omit<repo.NewNotification, 'userId'>,
): Promise<void> {
  return repo.insertForUsers(tx, userIds, n);
}

/**
 * Tells every Active user of `role` about a change, e.g. all Admins of a cancellation request;
 * `exceptUserId` (the one who made the change) is left out.
 */
export function notifyRole(
  tx: Tx,
  role: Role,
  n: Omit<repo.NewNotification, 'userId'>,
  exceptUserId: string | null = null,
): Promise<void> {
  return repo.insertForRole(tx, role, n, exceptUserId);
}

/** GET /api/notifications: the caller's own, newest first, with its unread count. */
export async function listMine(
  db: Db,
  userId: string,
  q: NotificationListFilters,
): Promise<NotificationList> {
  const [rows, unreadCount] = await Promise.all([
    repo.listForUser(db, userId, q),
    repo.countUnread(db, userId),
  ]);
  const items = rows.slice(0, q.limit);
  const last = items.at(-1);
  return {
    notifications: items.map((r) => ({
      _id: r.id,
      eventType: r.event_type,
      message: r.message,
      link: r.link,
      createdAt: r.created_at.toISOString(),
      read: r.read_at !== null,
    })),
    unreadCount,
    nextCursor: rows.length > q.limit && last ? last.seq : null,
  };
}

/** PUT /api/notifications/{id}/read: only the owner's; another's answers 404 like a missing one. */
export async function markRead(db: Db, userId: string, id: string): Promise<void> {
  if (!(await repo.markRead(db, userId, id))) throw notFound(msg.notificationNotFound);
}

/** PUT /api/notifications/read-all. */
export function markAllRead(db: Db, userId: string): Promise<void> {
  return repo.markAllRead(db, userId);
}
