import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CreditTransaction } from '@herald/contract';
import { api } from '../../../lib/api-client';

/** Every cache of the credits resource (lists and balances) lives under this key. */
export const creditsRootKey = ['credits'] as const;

export interface GetCreditsParams {
  /** Newest N entries; omitted means all entries in scope. */
  limit?: number;
  /** Adds a `_t` time stamp so no HTTP cache answers (spec 7, reseller screen). */
  bustCache?: boolean;
}

interface CreditsReply {
  transactions: CreditTransaction[];
}

/** The ledger entries in the caller's scope, newest first. */
export async function getCredits(
  params: GetCreditsParams = {},
  signal?: AbortSignal,
): Promise<CreditTransaction[]> {
  const reply = await api<CreditsReply>('/credits', {
    signal,
    query: { limit: params.limit, _t: params.bustCache ? Date.now() : undefined },
  });
  return Array.isArray(reply?.transactions) ? reply.transactions : [];
}

export function creditsQueryOptions(params: GetCreditsParams = {}) {
  return queryOptions({
    // The time stamp is made per request, so it is not part of the key.
    queryKey: [...creditsRootKey, 'list', { limit: params.limit ?? null }] as const,
    queryFn: ({ signal }) => getCredits(params, signal),
  });
}

export function useCredits(params: GetCreditsParams = {}) {
  return useQuery(creditsQueryOptions(params));
}
