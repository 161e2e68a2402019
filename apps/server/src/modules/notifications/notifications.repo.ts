import { sql } from 'kysely';
import type { Role } from '@herald/contract';
import type { Tx } from '../../db/database.js';

/**
 * In-app notifications, write side (decisions.md section 5). Each insert runs in the caller's
 * transaction, so a notification exists exactly when the change it announces committed.
 * Reading and marking them read belongs to the notifications screen.
 */

/** What a notification is about; the bell may pick an icon by it. */
export type NotificationEvent = 'campaign_status' | 'campaign_report' | 'credits';

export interface NewNotification {
  userId: string;
  eventType: NotificationEvent;
  message: string;
  /** The screen that shows the change (a web route such as '/campaigns'). */
  link: string | null;
}

export async function notify(tx: Tx, n: NewNotification): Promise<void> {
  await tx
    .insertInto('notifications')
    .values({ user_id: n.userId, event_type: n.eventType, message: n.message, link: n.link })
    .execute();
}

/** One notification to every Active user of `role` (one statement), e.g. all Admins. */
export async function notifyRole(
  tx: Tx,
  role: Role,
  n: Omit<NewNotification, 'userId'>,
): Promise<void> {
  await sql`
    INSERT INTO notifications (user_id, event_type, message, link)
    SELECT id, ${n.eventType}, ${n.message}, ${n.link}
      FROM users WHERE role = ${role} AND status = 'Active'`.execute(tx);
}
