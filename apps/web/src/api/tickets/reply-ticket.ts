import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TicketDetail } from '@herald/contract';
import { api } from '../../lib/api-client';
import { ticketChanged } from './ticket-change';

/** PUT /api/tickets/{id}/reply: adds a message; answers the updated ticket. */
export function replyTicket({ id, message }: { id: string; message: string }) {
  return api<TicketDetail>(`/tickets/${encodeURIComponent(id)}/reply`, {
    method: 'PUT',
    body: { message },
  });
}

export function useReplyTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replyTicket,
    onSuccess: (ticket) => ticketChanged(queryClient, ticket),
  });
}
