import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Profile } from '@herald/contract';
import { api } from '../../lib/api-client';
import { usersRootKey } from '../users/get-users';

/**
 * Every cached profile lives under this key: under the users resource, so edits made on User
 * Management refresh it; a credit change or a campaign invalidates it for the balances.
 */
export const profilesRootKey = [...usersRootKey, 'profile'] as const;

/** A user's profile with balances and recent campaigns (404 when outside the caller's scope). */
export function getProfile(userId: string, signal?: AbortSignal): Promise<Profile> {
  return api<Profile>(`/users/profile/${encodeURIComponent(userId)}`, { signal });
}

export function profileQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...profilesRootKey, userId] as const,
    queryFn: ({ signal }) => getProfile(userId, signal),
  });
}

export function useProfile(userId: string | undefined, enabled: boolean) {
  return useQuery({ ...profileQueryOptions(userId ?? ''), enabled: enabled && !!userId });
}
