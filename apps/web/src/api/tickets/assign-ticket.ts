import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TicketDetail } from '@herald/contract';
import { api } from '../../lib/api-client';
import { ticketChanged } from './ticket-change';

/** PUT /api/tickets/{id}/assign (Admin): `assignee` is 'Admin' or a Reseller's email. */
export function assignTicket({ id, assignee }: { id: string; assignee: string }) {
  return api<TicketDetail>(`/tickets/${encodeURIComponent(id)}/assign`, {
    method: 'PUT',
    body: { assignee },
  });
}

export function useAssignTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignTicket,
    onSuccess: (ticket) => ticketChanged(queryClient, ticket),
  });
}
