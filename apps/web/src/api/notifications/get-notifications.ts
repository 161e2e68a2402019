import { queryOptions, useQuery } from '@tanstack/react-query';
import { ALERT_POLL_MS, NOTIFICATION_LIST_DEFAULT, type NotificationList } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every cache of the notifications resource lives under this key. */
export const notificationsRootKey = ['notifications'] as const;

/** GET /api/notifications?unread=true: the caller's unread notifications, newest first. */
export async function getUnreadNotifications(signal?: AbortSignal): Promise<NotificationList> {
  const reply = await api<Partial<NotificationList>>('/notifications', {
    signal,
    query: { unread: 'true', limit: NOTIFICATION_LIST_DEFAULT },
  });
  return {
    notifications: Array.isArray(reply?.notifications) ? reply.notifications : [],
    unreadCount: typeof reply?.unreadCount === 'number' ? reply.unreadCount : 0,
    nextCursor: reply?.nextCursor ?? null,
  };
}

export function unreadNotificationsQueryOptions() {
  return queryOptions({
    queryKey: [...notificationsRootKey, 'unread'] as const,
    queryFn: ({ signal }) => getUnreadNotifications(signal),
  });
}

/** The bell's list: refreshed every 30 s while the tab is visible, and on live events. */
export function useUnreadNotifications() {
  return useQuery({
    ...unreadNotificationsQueryOptions(),
    refetchInterval: ALERT_POLL_MS,
    refetchIntervalInBackground: false,
    retry: false,
  });
}
