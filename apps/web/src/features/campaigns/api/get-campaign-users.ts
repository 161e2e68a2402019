import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@herald/contract';
import { api } from '../../../lib/api-client';

/**
 * The users in the caller's scope (without the caller), for the User filter. Same resource
 * and key as the users screen's list, so both share one cache and its invalidation.
 */
export function getCampaignUsers(signal?: AbortSignal): Promise<User[]> {
  return api<User[]>('/users', { signal });
}

export function campaignUsersQueryOptions() {
  return queryOptions({
    queryKey: ['users', 'list'] as const,
    queryFn: ({ signal }) => getCampaignUsers(signal),
  });
}

export function useCampaignUsers(enabled: boolean) {
  return useQuery({ ...campaignUsersQueryOptions(), enabled });
}
