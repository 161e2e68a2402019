import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { ANNOUNCEMENT_LIST_DEFAULT, type AdminAnnouncementList } from '@herald/contract';
import { api } from '../../lib/api-client';
import { announcementsRootKey } from './get-announcement-history';

/** GET /api/announcements/all (Admin): one page of every announcement, newest first. */
export async function getAllAnnouncements(
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<AdminAnnouncementList> {
  const reply = await api<Partial<AdminAnnouncementList>>('/announcements/all', {
    signal,
    query: { limit: ANNOUNCEMENT_LIST_DEFAULT, cursor },
  });
  return {
    announcements: Array.isArray(reply?.announcements) ? reply.announcements : [],
    nextCursor: reply?.nextCursor ?? null,
  };
}

export function allAnnouncementsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...announcementsRootKey, 'all'] as const,
    queryFn: ({ pageParam, signal }) => getAllAnnouncements(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useAllAnnouncements() {
  return useInfiniteQuery({ ...allAnnouncementsQueryOptions(), refetchOnWindowFocus: false });
}
