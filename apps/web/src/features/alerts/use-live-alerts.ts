import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { subscribeLiveAlerts } from '../../api/notifications/live-alerts';
import { unreadNotificationsQueryOptions } from '../../api/notifications/get-notifications';
import { myAnnouncementsQueryOptions } from '../../api/announcements/get-my-announcements';

/**
 * Keeps the bell current within a second: each live event reloads the list it names, and a
 * (re)opened stream reloads both, since events may have been missed while it was down. The
 * 30-second polling of the queries stays as the fallback.
 */
export function useLiveAlerts(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const controller = new AbortController();
    const reload = (key: readonly unknown[]) =>
      void queryClient.invalidateQueries({ queryKey: key });
    const notifications = unreadNotificationsQueryOptions().queryKey;
    const announcements = myAnnouncementsQueryOptions().queryKey;
    subscribeLiveAlerts(
      (kind) => reload(kind === 'notifications' ? notifications : announcements),
      () => {
        reload(notifications);
        reload(announcements);
      },
      controller.signal,
    );
    return () => controller.abort();
  }, [queryClient]);
}
