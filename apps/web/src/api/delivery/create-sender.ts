import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSenderBody, Sender } from '@herald/contract';
import { api } from '../../lib/api-client';
import { invalidateDeliverySetup } from './get-providers';

/** POST /api/delivery/senders (Admin): a new sender of a provider. */
export function createSender(body: CreateSenderBody): Promise<Sender> {
  return api<Sender>('/delivery/senders', { method: 'POST', body });
}

export function useCreateSender() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSender,
    onSuccess: () => invalidateDeliverySetup(queryClient),
  });
}
