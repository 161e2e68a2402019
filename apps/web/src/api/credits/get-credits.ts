import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { CREDIT_LIST_DEFAULT, type CreditTransactionList } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every cache of the credits resource (lists and balances) lives under this key. */
export const creditsRootKey = ['credits'] as const;

export interface GetCreditsParams {
  /** Entries per page. */
  limit?: number;
  /** Adds a `_t` time stamp so no HTTP cache answers (the resellers' screen). */
  bustCache?: boolean;
}

/** GET /api/credits: one page of the caller's scope, newest first; a non-array reads as empty. */
export async function getCredits(
  params: GetCreditsParams,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<CreditTransactionList> {
  const reply = await api<Partial<CreditTransactionList>>('/credits', {
    signal,
    query: {
      limit: params.limit ?? CREDIT_LIST_DEFAULT,
      cursor,
      _t: params.bustCache ? Date.now() : undefined,
    },
  });
  return {
    transactions: Array.isArray(reply?.transactions) ? reply.transactions : [],
    nextCursor: reply?.nextCursor ?? null,
  };
}

export function creditsQueryOptions(params: GetCreditsParams = {}) {
  return infiniteQueryOptions({
    // The time stamp is made per request, so it is not part of the key.
    queryKey: [...creditsRootKey, 'list', { limit: params.limit ?? null }] as const,
    queryFn: ({ pageParam, signal }) => getCredits(params, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The entries page by page (fetchNextPage loads the next one); no refetch on focus. */
export function useCredits(params: GetCreditsParams = {}) {
  return useInfiniteQuery({ ...creditsQueryOptions(params), refetchOnWindowFocus: false });
}
