import { queryOptions, useQuery } from '@tanstack/react-query';
import { ALERT_POLL_MS, ANNOUNCEMENT_LIST_DEFAULT, type AnnouncementList } from '@herald/contract';
import { api } from '../../lib/api-client';
import { announcementsRootKey } from './get-announcement-history';

/** GET /api/announcements: the caller's unexpired announcements with its seen state. */
export async function getMyAnnouncements(signal?: AbortSignal): Promise<AnnouncementList> {
  const reply = await api<Partial<AnnouncementList>>('/announcements', {
    signal,
    query: { limit: ANNOUNCEMENT_LIST_DEFAULT },
  });
  const announcements = Array.isArray(reply?.announcements) ? reply.announcements : [];
  return {
    announcements,
    unseenCount:
      typeof reply?.unseenCount === 'number'
        ? reply.unseenCount
        : announcements.filter((a) => !a.seen).length,
    nextCursor: reply?.nextCursor ?? null,
  };
}

export function myAnnouncementsQueryOptions() {
  return queryOptions({
    queryKey: [...announcementsRootKey, 'mine'] as const,
    queryFn: ({ signal }) => getMyAnnouncements(signal),
  });
}

/** The bell's announcements: refreshed every 30 s while the tab is visible. */
export function useMyAnnouncements() {
  return useQuery({
    ...myAnnouncementsQueryOptions(),
    refetchInterval: ALERT_POLL_MS,
    refetchIntervalInBackground: false,
    retry: false,
  });
}
