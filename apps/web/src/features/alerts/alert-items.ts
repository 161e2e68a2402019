import {
  ANNOUNCEMENT_PREVIEW_CHARS,
  type Announcement,
  type AnnouncementList,
  type Notification,
  type NotificationList,
} from '@herald/contract';

/** One row of the bell: an unread notification or an unseen announcement. */
export type AlertItem =
  | { kind: 'notification'; id: string; at: number; notification: Notification }
  | { kind: 'announcement'; id: string; at: number; announcement: Announcement };

const timeOf = (iso: string) => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
};

/** Unread notifications and unseen announcements, merged newest first. */
export function mergeAlerts(
  notifications: readonly Notification[],
  announcements: readonly Announcement[],
): AlertItem[] {
  const items: AlertItem[] = [
    ...notifications
      .filter((n) => !n.read)
      .map((n): AlertItem => ({
        kind: 'notification',
        id: `n:${n._id}`,
        at: timeOf(n.createdAt),
        notification: n,
      })),
    ...announcements
      .filter((a) => !a.seen)
      .map((a): AlertItem => ({
        kind: 'announcement',
        id: `a:${a._id}`,
        at: timeOf(a.createdAt),
        announcement: a,
      })),
  ];
  return items.sort((x, y) => y.at - x.at);
}

/** The badge: unread notifications plus unseen announcements, as the server counts them. */
export function unreadTotal(
  notifications: NotificationList | undefined,
  announcements: AnnouncementList | undefined,
): number {
  return (notifications?.unreadCount ?? 0) + (announcements?.unseenCount ?? 0);
}

/** An announcement's first 70 characters (whole characters, not UTF-16 halves), '…' if cut. */
export function previewOf(message: string, chars = ANNOUNCEMENT_PREVIEW_CHARS): string {
  const all = [...message];
  return all.length > chars ? `${all.slice(0, chars).join('')}…` : message;
}

/** A link the app may follow itself: a path of this site, never another origin or a script. */
export function internalPath(link: string | null): string | null {
  return link && link.startsWith('/') && !link.startsWith('//') && !link.startsWith('/\\')
    ? link
    : null;
}

/** Whether the unread count rose (not on the first load, which is no news). */
export function countRose(previous: number | undefined, next: number): boolean {
  return previous !== undefined && next > previous;
}
