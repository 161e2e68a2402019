import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { invalidateDeliverySetup } from './get-providers';

/** DELETE /api/delivery/senders/{id} (Admin): 409 for the default sender or one still sending. */
export function removeSender(id: string): Promise<void> {
  return api<void>(`/delivery/senders/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useRemoveSender() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeSender,
    onSuccess: () => invalidateDeliverySetup(queryClient),
  });
}
