import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { SUPPRESSIONS_PAGE_DEFAULT, type SuppressionPage } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every cache of the suppression list (its pages and the campaign form's checks) lives here. */
export const suppressionsRootKey = ['suppressions'] as const;

export interface SuppressionFilters {
  /** Digits the numbers contain; blank means every number. */
  search: string;
  /** The Admin's owner filter; blank means every owner (or the caller's own for the others). */
  ownerId: string;
}

/** The query string of GET /api/suppressions and its export: blank filters are left out. */
export function suppressionsQuery(
  f: SuppressionFilters,
  cursor?: string,
): Record<string, string | number | undefined> {
  return {
    search: f.search.trim() || undefined,
    ownerId: f.ownerId || undefined,
    limit: SUPPRESSIONS_PAGE_DEFAULT,
    cursor,
  };
}

/** GET /api/suppressions: one page, newest first. A reply without a list reads as empty. */
export async function getSuppressions(
  f: SuppressionFilters,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<SuppressionPage> {
  const reply = await api<Partial<SuppressionPage>>('/suppressions', {
    signal,
    query: suppressionsQuery(f, cursor),
  });
  return {
    suppressions: Array.isArray(reply?.suppressions) ? reply.suppressions : [],
    nextCursor: reply?.nextCursor ?? null,
  };
}

export function suppressionsQueryOptions(f: SuppressionFilters) {
  const key = { search: f.search.trim(), ownerId: f.ownerId };
  return infiniteQueryOptions({
    queryKey: [...suppressionsRootKey, 'list', key] as const,
    queryFn: ({ pageParam, signal }) => getSuppressions(key, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The Suppression List's rows, page by page; the previous result stays while a search loads. */
export function useSuppressions(f: SuppressionFilters) {
  return useInfiniteQuery({ ...suppressionsQueryOptions(f), placeholderData: keepPreviousData });
}
