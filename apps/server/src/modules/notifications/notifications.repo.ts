import { sql } from 'kysely';
import type { Role } from '@herald/contract';
import type { Tx } from '../../db/database.js';

/**
 * In-app notifications, write side (decisions.md section 5): queries only, in the caller's
 * transaction. Other modules reach them through notifications.service.ts.
 */

/** What a notification is about; the bell may pick an icon by it. */
export type NotificationEvent =
  | 'campaign_status'
  | 'campaign_report'
  | 'credits'
  | 'ticket_reply'
  | 'ticket_status'
  | 'ticket_assigned'
  | 'ticket_escalated';

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

/** One notification to every Active user of `role`, in one statement. */
export async function insertForRole(
  tx: Tx,
  role: Role,
  n: Omit<NewNotification, 'userId'>,
): Promise<void> {
  await sql`
    INSERT INTO notifications (user_id, event_type, message, link)
    SELECT id, ${n.eventType}, ${n.message}, ${n.link}
      FROM users WHERE role = ${role} AND status = 'Active'`.execute(tx);
}
