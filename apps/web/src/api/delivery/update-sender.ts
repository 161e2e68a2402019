import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Sender, UpdateSenderBody } from '@herald/contract';
import { api } from '../../lib/api-client';
import { invalidateDeliverySetup } from './get-providers';

export interface UpdateSenderArgs {
  id: string;
  body: UpdateSenderBody;
}

/**
 * PUT /api/delivery/senders/{id} (Admin): the name and address (absent: unchanged), the rate per
 * second and the daily limit (null: none).
 */
export function updateSender({ id, body }: UpdateSenderArgs): Promise<Sender> {
  return api<Sender>(`/delivery/senders/${encodeURIComponent(id)}`, { method: 'PUT', body });
}

export function useUpdateSender() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSender,
    onSuccess: () => invalidateDeliverySetup(queryClient),
  });
}
