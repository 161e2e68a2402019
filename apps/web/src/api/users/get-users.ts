import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every cache of the users resource (the list and the profiles) lives under this key. */
export const usersRootKey = ['users'] as const;

/**
 * GET /api/users: the users in the caller's scope, without the caller. One cache for User
 * Management, the campaign and credit forms' pickers and the reports, so one invalidation
 * refreshes them all.
 */
export function getUsers(signal?: AbortSignal): Promise<User[]> {
  return api<User[]>('/users', { signal });
}

export function usersQueryOptions() {
  return queryOptions({
    queryKey: [...usersRootKey, 'list'] as const,
    queryFn: ({ signal }) => getUsers(signal),
  });
}

/** `enabled` false where the caller has no users to pick from (a User). */
export function useUsers(enabled = true) {
  return useQuery({ ...usersQueryOptions(), enabled });
}
