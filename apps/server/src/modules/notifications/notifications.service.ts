import type { Role } from '@herald/contract';
import type { Tx } from '../../db/database.js';
import * as repo from './notifications.repo.js';

/**
 * The notifications module's public face for other modules (decisions.md section 5). Each
 * notification is written in the caller's transaction, so it exists exactly when the change
 * it announces committed.
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

/** Tells every Active user of `role` about a change, e.g. all Admins of a cancellation request. */
export function notifyRole(
  tx: Tx,
  role: Role,
  n: Omit<repo.NewNotification, 'userId'>,
): Promise<void> {
  return repo.insertForRole(tx, role, n);
}
