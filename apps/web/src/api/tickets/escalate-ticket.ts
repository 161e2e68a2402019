import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TicketDetail } from '@herald/contract';
import { api } from '../../lib/api-client';
import { ticketChanged } from './ticket-change';

/** PUT /api/tickets/{id}/escalate: the assigned Reseller hands the ticket back to Admin. */
export function escalateTicket(id: string) {
  return api<TicketDetail>(`/tickets/${encodeURIComponent(id)}/escalate`, { method: 'PUT' });
}

export function useEscalateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: escalateTicket,
    onSuccess: (ticket) => ticketChanged(queryClient, ticket),
  });
}
