import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { TICKET_LIST_DEFAULT, type TicketList } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every tickets cache (the list and each ticket) lives under this key. */
export const ticketsRootKey = ['tickets'] as const;

/** GET /api/tickets: one page of the caller's tickets, newest first; `nextCursor` null at the end. */
export function getTickets(cursor: string | undefined, signal?: AbortSignal): Promise<TicketList> {
  return api<TicketList>('/tickets', { query: { cursor, limit: TICKET_LIST_DEFAULT }, signal });
}

export function ticketsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...ticketsRootKey, 'list'] as const,
    queryFn: ({ pageParam, signal }) => getTickets(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useTickets(enabled = true) {
  return useInfiniteQuery({ ...ticketsQueryOptions(), enabled, refetchOnWindowFocus: false });
}
