import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Provider } from '@herald/contract';
import { api } from '../../lib/api-client';
import { sendersRootKey } from './get-senders';
import { routesRootKey } from './get-routes';
import { templatesRootKey } from './get-templates';

export const providersRootKey = ['providers'] as const;

/** GET /api/delivery/providers (Admin): each provider, its secrets as their last 4 characters. */
export function getProviders(signal?: AbortSignal): Promise<Provider[]> {
  return api<Provider[]>('/delivery/providers', { signal });
}

export function providersQueryOptions() {
  return queryOptions({
    queryKey: [...providersRootKey, 'list'] as const,
    queryFn: ({ signal }) => getProviders(signal),
  });
}

export function useProviders() {
  return useQuery(providersQueryOptions());
}

/**
 * Providers, senders and routes show parts of each other (a sender its provider's name, a
 * provider its sender count, a route its sender): a change to one reloads the three, and the
 * templates, which follow their sender and the credit types' routes.
 */
export function invalidateDeliverySetup(queryClient: QueryClient): Promise<void> {
  return Promise.all(
    [providersRootKey, sendersRootKey, routesRootKey, templatesRootKey].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  ).then(() => undefined);
}
