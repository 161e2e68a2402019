import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TicketDetail } from '@herald/contract';
import { api } from '../../lib/api-client';
import { ticketsRootKey } from './get-tickets';

/** GET /api/tickets/{id}: the ticket with its conversation and attachments. */
export function getTicket(id: string, signal?: AbortSignal): Promise<TicketDetail> {
  return api<TicketDetail>(`/tickets/${encodeURIComponent(id)}`, { signal });
}

export const ticketQueryKey = (id: string) => [...ticketsRootKey, 'detail', id] as const;

export function ticketQueryOptions(id: string) {
  return queryOptions({
    queryKey: ticketQueryKey(id),
    queryFn: ({ signal }) => getTicket(id, signal),
  });
}

/** The open ticket; `id` null while no ticket is open. */
export function useTicket(id: string | null) {
  return useQuery({ ...ticketQueryOptions(id ?? ''), enabled: id !== null });
}
