import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CampaignDetail } from '@herald/contract';
import { api } from '../../lib/api-client';
import { campaignsRootKey } from './get-campaigns';

/** GET /api/campaigns/{id}: the campaign with its files and the first slice of its recipients. */
export function getCampaign(id: string, signal?: AbortSignal): Promise<CampaignDetail> {
  return api<CampaignDetail>(`/campaigns/${encodeURIComponent(id)}`, { signal });
}

export function campaignQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...campaignsRootKey, 'detail', id] as const,
    queryFn: ({ signal }) => getCampaign(id, signal),
    gcTime: 10_000,
  });
}

export function useCampaign(id: string) {
  return useQuery(campaignQueryOptions(id));
}
