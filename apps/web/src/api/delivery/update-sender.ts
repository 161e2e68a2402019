import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Sender, UpdateSenderBody } from '@herald/contract';
import { api } from '../../lib/api-client';
import { sendersRootKey } from './get-senders';

export interface UpdateSenderArgs {
  id: string;
  body: UpdateSenderBody;
}

/** PUT /api/delivery/senders/{id} (Admin): the rate per second and the daily limit (null: none). */
export function updateSender({ id, body }: UpdateSenderArgs): Promise<Sender> {
  return api<Sender>(`/delivery/senders/${encodeURIComponent(id)}`, { method: 'PUT', body });
}

export function useUpdateSender() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSender,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sendersRootKey }),
  });
}
