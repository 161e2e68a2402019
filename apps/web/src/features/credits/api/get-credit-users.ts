import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@herald/contract';
import { api } from '../../../lib/api-client';

/**
 * The users in the caller's scope (without the caller), for the form's User select. Same
 * resource and key as the users screen's list, so both share one cache and its invalidation.
 */
export function getCreditUsers(signal?: AbortSignal): Promise<User[]> {
  return api<User[]>('/users', { signal });
}

export function creditUsersQueryOptions() {
  return queryOptions({
    queryKey: ['users', 'list'] as const,
    queryFn: ({ signal }) => getCreditUsers(signal),
  });
}

export function useCreditUsers() {
  return useQuery(creditUsersQueryOptions());
}
