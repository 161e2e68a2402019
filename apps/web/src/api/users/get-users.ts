import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import {
  USER_PICKER_RESULTS,
  USER_SEARCH_DEBOUNCE_MS,
  USERS_PAGE_DEFAULT,
  type Role,
  type User,
  type UserPage,
} from '@herald/contract';
import { api } from '../../lib/api-client';
import { useDebouncedValue } from '../../lib/use-debounced-value';

/** Every cache of the users resource (the lists, the searches and the profiles) lives here. */
export const usersRootKey = ['users'] as const;

export interface GetUsersParams {
  /** Keeps users whose name or email contains it; blank means every user. */
  search?: string;
  /** Keeps users of this role only. */
  role?: Role;
  /** Users per page. */
  limit?: number;
}

/** The query string of GET /api/users: a blank search is left out. */
export function usersQuery(
  params: GetUsersParams,
  cursor: string | undefined,
): Record<string, string | number | undefined> {
  const search = params.search?.trim();
  return {
    search: search || undefined,
    role: params.role,
    limit: params.limit ?? USERS_PAGE_DEFAULT,
    cursor,
  };
}

/**
 * GET /api/users: one page of the users in the caller's scope, without the caller, newest
 * first. A reply without a list reads as empty.
 */
export async function getUsers(
  params: GetUsersParams,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<UserPage> {
  const reply = await api<Partial<UserPage>>('/users', {
    signal,
    query: usersQuery(params, cursor),
  });
  return {
    users: Array.isArray(reply?.users) ? reply.users : [],
    nextCursor: reply?.nextCursor ?? null,
  };
}

export function usersQueryOptions(params: GetUsersParams = {}) {
  const search = params.search?.trim() ?? '';
  return infiniteQueryOptions({
    queryKey: [
      ...usersRootKey,
      'list',
      { search, role: params.role ?? null, limit: params.limit ?? null },
    ] as const,
    queryFn: ({ pageParam, signal }) => getUsers({ ...params, search }, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * User Management's list, page by page (fetchNextPage loads the next one). While a new search
 * loads, the previous result stays (isPlaceholderData). `enabled` false where the caller has no
 * users to list (a User).
 */
export function useUsers(params: GetUsersParams = {}, enabled = true) {
  return useInfiniteQuery({
    ...usersQueryOptions(params),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function userSearchQueryOptions(search: string) {
  const term = search.trim();
  return queryOptions({
    queryKey: [...usersRootKey, 'search', { search: term, limit: USER_PICKER_RESULTS }] as const,
    queryFn: ({ signal }) =>
      getUsers({ search: term, limit: USER_PICKER_RESULTS }, undefined, signal).then(
        (page): User[] => page.users,
      ),
    staleTime: 30_000,
  });
}

/**
 * A picker's matches for what was typed: the first USER_PICKER_RESULTS users whose name or
 * email contains `term`, asked USER_SEARCH_DEBOUNCE_MS after the last keystroke. The previous
 * matches stay while the next ones load. `enabled` false where the caller has no users (a User).
 */
export function useUserSearch(term: string, enabled = true) {
  const search = useDebouncedValue(term.trim(), USER_SEARCH_DEBOUNCE_MS);
  const query = useQuery({
    ...userSearchQueryOptions(search),
    enabled,
    placeholderData: keepPreviousData,
  });
  /** True from the keystroke until its matches arrive. */
  const searching = enabled && (search !== term.trim() || query.isFetching);
  return { ...query, searching };
}
