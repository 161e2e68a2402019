import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { API_KEYS_PAGE_DEFAULT, type ApiKeyPage } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every cache of the API keys list lives under this key. */
export const apiKeysRootKey = ['api-keys'] as const;

/** GET /api/api-keys: one page, newest first. A reply without a list reads as empty. */
export async function getApiKeys(
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<ApiKeyPage> {
  const reply = await api<Partial<ApiKeyPage>>('/api-keys', {
    signal,
    query: { limit: API_KEYS_PAGE_DEFAULT, cursor },
  });
  return {
    keys: Array.isArray(reply?.keys) ? reply.keys : [],
    nextCursor: reply?.nextCursor ?? null,
  };
}

export function apiKeysQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...apiKeysRootKey, 'list'] as const,
    queryFn: ({ pageParam, signal }) => getApiKeys(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The caller's keys (the Admin's: every user's), page by page. */
export function useApiKeys() {
  return useInfiniteQuery(apiKeysQueryOptions());
}
