import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Balances } from '@herald/contract';
import { api } from '../../../lib/api-client';

/**
 * GET /api/credits/balances: email → credit type → balance in the caller's scope. Same key as
 * the credits screen's query, so a credit change or a campaign refreshes both.
 */
export function getBalances(signal?: AbortSignal): Promise<Balances> {
  return api<Balances>('/credits/balances', { signal });
}

export function balancesQueryOptions() {
  return queryOptions({
    queryKey: ['credits', 'balances'] as const,
    queryFn: ({ signal }) => getBalances(signal),
  });
}

export function useBalances() {
  return useQuery(balancesQueryOptions());
}
