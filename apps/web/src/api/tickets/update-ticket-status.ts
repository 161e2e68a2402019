import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TicketDetail, TicketStatus } from '@herald/contract';
import { api } from '../../lib/api-client';
import { ticketChanged } from './ticket-change';

/** PUT /api/tickets/{id}/status (Admin). */
export function updateTicketStatus({ id, status }: { id: string; status: TicketStatus }) {
  return api<TicketDetail>(`/tickets/${encodeURIComponent(id)}/status`, {
    method: 'PUT',
    body: { status },
  });
}

export function useUpdateTicketStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTicketStatus,
    onSuccess: (ticket) => ticketChanged(queryClient, ticket),
  });
}
