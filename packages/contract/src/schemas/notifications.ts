import { z } from 'zod';
import { BigintCursorSchema, text } from './common.js';
import { server as msg } from '../server-messages.js';
import { NOTIFICATION_LIST_DEFAULT } from '../links.js';

/** In-app notifications and the live alerts stream (docs/product.md, Announcements and alerts). */

export const NOTIFICATION_LIST_MAX = 200;
/** A comment line on the live stream this often keeps proxies from closing an idle one. */
export const LIVE_HEARTBEAT_MS = 25_000;

export const NotificationListQuerySchema = z.object({
  cursor: text()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(BigintCursorSchema.optional()),
  limit: z.coerce
    .number(msg.pageLimit(NOTIFICATION_LIST_MAX))
    .int(msg.pageLimit(NOTIFICATION_LIST_MAX))
    .min(1, msg.pageLimit(NOTIFICATION_LIST_MAX))
    .max(NOTIFICATION_LIST_MAX, msg.pageLimit(NOTIFICATION_LIST_MAX))
    .default(NOTIFICATION_LIST_DEFAULT),
  /** `true`: only the unread ones (the bell). */
  unread: z
    .enum(['true', 'false'], msg.invalidInput)
    .optional()
    .transform((v) => v === 'true'),
});
export type NotificationListQuery = z.input<typeof NotificationListQuerySchema>;
export type NotificationListFilters = z.output<typeof NotificationListQuerySchema>;

export const NotificationSchema = z.object({
  _id: z.string(),
  eventType: z.string(),
  message: z.string(),
  /** The web route that shows the change, or null. */
  link: z.string().nullable(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof NotificationSchema>;

/** GET /api/notifications: mine, newest first, a page at a time, with my unread count. */
export const NotificationListSchema = z.object({
  notifications: z.array(NotificationSchema),
  unreadCount: z.number(),
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type NotificationList = z.infer<typeof NotificationListSchema>;
