import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateProviderBody, Provider } from '@herald/contract';
import { api } from '../../lib/api-client';
import { invalidateDeliverySetup } from './get-providers';

/** POST /api/delivery/providers (Admin): a new provider with its settings and secrets. */
export function createProvider(body: CreateProviderBody): Promise<Provider> {
  return api<Provider>('/delivery/providers', { method: 'POST', body });
}

export function useCreateProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProvider,
    onSuccess: () => invalidateDeliverySetup(queryClient),
  });
}
