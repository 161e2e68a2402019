import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { ANNOUNCEMENT_LIST_DEFAULT, type AnnouncementList } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every cache of the announcements resource (history, Admin's list) lives under this key. */
export const announcementsRootKey = ['announcements'] as const;

/** GET /api/announcements/history: one page of the caller's announcements, newest first. */
export async function getAnnouncementHistory(
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<AnnouncementList> {
  const reply = await api<Partial<AnnouncementList>>('/announcements/history', {
    signal,
    query: { limit: ANNOUNCEMENT_LIST_DEFAULT, cursor },
  });
  return {
    announcements: Array.isArray(reply?.announcements) ? reply.announcements : [],
    nextCursor: reply?.nextCursor ?? null,
  };
}

export function announcementHistoryQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...announcementsRootKey, 'history'] as const,
    queryFn: ({ pageParam, signal }) => getAnnouncementHistory(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useAnnouncementHistory() {
  return useInfiniteQuery({ ...announcementHistoryQueryOptions(), refetchOnWindowFocus: false });
}
