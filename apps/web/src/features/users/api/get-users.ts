import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@herald/contract';
import { api } from '../../../lib/api-client';

/** Every cache of the users resource (the list and the profiles) lives under this key. */
export const usersRootKey = ['users'] as const;

/** The users in the caller's scope, without the caller. */
export function getUsers(signal?: AbortSignal): Promise<User[]> {
  return api<User[]>('/users', { signal });
}

export function usersQueryOptions() {
  return queryOptions({
    queryKey: [...usersRootKey, 'list'] as const,
    queryFn: ({ signal }) => getUsers(signal),
  });
}

export function useUsers() {
  return useQuery(usersQueryOptions());
}
