import type { QueryClient } from '@tanstack/react-query';
import type { TicketDetail } from '@herald/contract';
import { ticketQueryKey } from './get-ticket';
import { ticketsRootKey } from './get-tickets';

/** After a change: the open ticket shows the server's answer at once, the list reloads. */
export async function ticketChanged(queryClient: QueryClient, ticket: TicketDetail) {
  queryClient.setQueryData(ticketQueryKey(ticket._id), ticket);
  await queryClient.invalidateQueries({ queryKey: [...ticketsRootKey, 'list'] });
}
