import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreditRoute, UpdateRoutesBody } from '@herald/contract';
import { api } from '../../lib/api-client';
import { routesRootKey } from './get-routes';
import { templatesRootKey } from './get-templates';

/** PUT /api/delivery/routes (Admin): the sender of each credit type listed; answers them all. */
export function updateRoutes(body: UpdateRoutesBody): Promise<CreditRoute[]> {
  return api<CreditRoute[]>('/delivery/routes', { method: 'PUT', body });
}

export function useUpdateRoutes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRoutes,
    onSuccess: (routes) => {
      queryClient.setQueryData([...routesRootKey, 'list'], routes);
      // A credit type's campaign templates are those of the sender it goes through.
      return queryClient.invalidateQueries({ queryKey: [...templatesRootKey, 'campaign'] });
    },
  });
}
