import { useCallback, useMemo } from 'react';
import type { InfiniteData } from '@tanstack/react-query';

/** What a paged list reads from an infinite query (TanStack's useInfiniteQuery result). */
export interface PagedQuery<P> {
  data: InfiniteData<P> | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** The "load more" end of a list: LoadMoreFooter's props but its words. */
export interface PagedMore {
  hasNextPage: boolean;
  isFetchingMore: boolean;
  /** Loading the next page failed: stop scrolling loads and offer a retry. */
  moreFailed: boolean;
  /** Asks for the next page; ignored unless more can load now. */
  onLoadMore: () => void;
}

export interface PagedRows<T> {
  /** Every loaded page's rows, in order. */
  rows: T[];
  /** The first page is loading. */
  loading: boolean;
  /** The first page failed (a failed "load more" keeps the rows and shows a retry instead). */
  failed: boolean;
  more: PagedMore;
}

/**
 * The "load more" state of an infinite query, for a list that renders its pages itself. Its
 * onLoadMore asks for the next page only when there is one and nothing is loading.
 */
export function usePagedMore(query: Omit<PagedQuery<unknown>, 'data'>): PagedMore {
  const { fetchNextPage, hasNextPage, isFetching, isFetchingNextPage, isFetchNextPageError } =
    query;
  const onLoadMore = useCallback(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetching]);
  return {
    hasNextPage,
    isFetchingMore: isFetchingNextPage,
    moreFailed: isFetchNextPageError,
    onLoadMore,
  };
}

/**
 * The rows of an infinite query, page after page, and its "load more" state. `rowsOf` must be
 * stable (module-level), so the rows are rebuilt only when a page arrives.
 */
export function usePagedRows<P, T>(
  query: PagedQuery<P>,
  rowsOf: (page: P) => readonly T[],
): PagedRows<T> {
  const { data } = query;
  const more = usePagedMore(query);
  const rows = useMemo(() => data?.pages.flatMap(rowsOf) ?? [], [data, rowsOf]);
  return {
    rows,
    loading: query.isPending,
    failed: query.isError && !query.isFetchNextPageError,
    more,
  };
}
