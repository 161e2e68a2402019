import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Balances } from '@herald/contract';
import { api } from '../../lib/api-client';
import { creditsRootKey } from './get-credits';

/**
 * GET /api/credits/balances: email → credit type → balance, for the users in the caller's
 * scope. Under the credits key, so a credit change or a new campaign refreshes it.
 */
export function getBalances(signal?: AbortSignal): Promise<Balances> {
  return api<Balances>('/credits/balances', { signal });
}

export function balancesQueryOptions() {
  return queryOptions({
    queryKey: [...creditsRootKey, 'balances'] as const,
    queryFn: ({ signal }) => getBalances(signal),
  });
}

export function useBalances() {
  return useQuery(balancesQueryOptions());
}

/** A user's balance of one type: Σ Added − Σ Removed as the server keeps it; 0 when absent. */
export function availableCredits(
  balances: Balances | undefined,
  email: string | undefined,
  creditType: string,
): number {
  if (!balances || !email) return 0;
  return balances[email]?.[creditType] ?? 0;
}
