import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CreditRoute } from '@herald/contract';
import { api } from '../../lib/api-client';

export const routesRootKey = ['credit-routes'] as const;

/** GET /api/delivery/routes (Admin): the sender of each credit type (null: the default one). */
export function getRoutes(signal?: AbortSignal): Promise<CreditRoute[]> {
  return api<CreditRoute[]>('/delivery/routes', { signal });
}

export function routesQueryOptions() {
  return queryOptions({
    queryKey: [...routesRootKey, 'list'] as const,
    queryFn: ({ signal }) => getRoutes(signal),
  });
}

export function useRoutes() {
  return useQuery(routesQueryOptions());
}
