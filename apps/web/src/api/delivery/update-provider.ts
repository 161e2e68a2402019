import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Provider, UpdateProviderBody } from '@herald/contract';
import { api } from '../../lib/api-client';
import { invalidateDeliverySetup } from './get-providers';

export interface UpdateProviderArgs {
  id: string;
  body: UpdateProviderBody;
}

/**
 * PUT /api/delivery/providers/{id} (Admin): name, enabled, settings and secrets; an empty or
 * absent secret keeps the saved one. Disabling is this call with `enabled: false`.
 */
export function updateProvider({ id, body }: UpdateProviderArgs): Promise<Provider> {
  return api<Provider>(`/delivery/providers/${encodeURIComponent(id)}`, { method: 'PUT', body });
}

export function useUpdateProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProvider,
    onSuccess: () => invalidateDeliverySetup(queryClient),
  });
}
