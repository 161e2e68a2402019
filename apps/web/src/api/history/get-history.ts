import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { HISTORY_PAGE_DEFAULT, type HistoryReply } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every history list lives under this key, so a new credit entry can invalidate them all. */
export const historyRootKey = ['credits', 'history'] as const;

/** The five filters as the form holds them; '' means "not set". */
export interface HistoryFilterValues {
  startDate: string;
  endDate: string;
  userEmail: string;
  transactionType: string;
  creditType: string;
}

export const EMPTY_HISTORY_FILTERS: HistoryFilterValues = {
  startDate: '',
  endDate: '',
  userEmail: '',
  transactionType: '',
  creditType: '',
};

/** Query parameters shared by the list and the export; unset filters are left out. */
export function historyParams(
  filters: HistoryFilterValues,
  tzOffset: number,
): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters) as [keyof HistoryFilterValues, string][]) {
    if (value) params[key] = value;
  }
  params.tzOffset = String(tzOffset);
  return params;
}

/** GET /api/credits/history: one page, newest first; `nextCursor` is null at the end. */
export function getHistory(
  filters: HistoryFilterValues,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<HistoryReply> {
  return api<HistoryReply>('/credits/history', {
    query: {
      // Dates are the viewer's local days (docs/product.md, Decisions).
      ...historyParams(filters, new Date().getTimezoneOffset()),
      cursor,
      limit: HISTORY_PAGE_DEFAULT,
    },
    signal,
  });
}

export function historyQueryOptions(filters: HistoryFilterValues) {
  return infiniteQueryOptions({
    queryKey: [...historyRootKey, filters] as const,
    queryFn: ({ pageParam, signal }) => getHistory(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * The filtered history, loaded page by page. While a filter change loads, the previous result
 * stays as placeholder data so the selects keep their options; the screen shows a spinner
 * instead of placeholder rows. No refetch on focus: that would reload every page scrolled so far.
 */
export function useHistory(filters: HistoryFilterValues, enabled: boolean) {
  return useInfiniteQuery({
    ...historyQueryOptions(filters),
    enabled,
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });
}
