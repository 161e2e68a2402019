import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TICKET_ATTACHMENTS_FIELD, type TicketActionReply } from '@herald/contract';
import { postBody } from '../../lib/upload';
import { ticketsRootKey } from './get-tickets';

export interface CreateTicketArgs {
  /** subject, description, issueType and the related ids; empty ones left out. */
  fields: Readonly<Record<string, string>>;
  attachments: readonly File[];
}

/** The multipart body of POST /api/tickets: text fields first, then each attachment. */
export function ticketFormData({ fields, attachments }: CreateTicketArgs): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value) form.append(name, value);
  for (const file of attachments) form.append(TICKET_ATTACHMENTS_FIELD, file, file.name);
  return form;
}

/** POST /api/tickets (multipart): opens a ticket, assigned to Admin. */
export function createTicket(args: CreateTicketArgs): Promise<TicketActionReply> {
  return postBody<TicketActionReply>('/tickets', ticketFormData(args));
}

export function useCreateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTicket,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketsRootKey }),
  });
}
