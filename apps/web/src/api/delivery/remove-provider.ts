import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { invalidateDeliverySetup } from './get-providers';

/** DELETE /api/delivery/providers/{id} (Admin): 409 while it has senders; never the built-in. */
export function removeProvider(id: string): Promise<void> {
  return api<void>(`/delivery/providers/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useRemoveProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeProvider,
    onSuccess: () => invalidateDeliverySetup(queryClient),
  });
}
