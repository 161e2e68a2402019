import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeliveryBreakdown } from '@herald/contract';
import { api } from '../../lib/api-client';
import { campaignsRootKey } from '../campaigns/get-campaigns';

/** GET /api/campaigns/{id}/delivery: counts by state and provider errors grouped by code. */
export function getCampaignDelivery(id: string, signal?: AbortSignal): Promise<DeliveryBreakdown> {
  return api<DeliveryBreakdown>(`/campaigns/${encodeURIComponent(id)}/delivery`, { signal });
}

/**
 * Under the campaigns root, so whatever refreshes the campaigns (a live 'campaigns' event, a
 * status change, pause or resume) refreshes an open breakdown too.
 */
export function campaignDeliveryQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...campaignsRootKey, 'delivery', id] as const,
    queryFn: ({ signal }) => getCampaignDelivery(id, signal),
  });
}

/** While the engine still holds the campaign, the open breakdown reloads this often. */
const SENDING_REFRESH_MS = 10_000;

/**
 * The breakdown counts a campaign's rows (about 0.3 s for a million), so it is not reloaded on
 * each live event as the lists are: every 10 s while sending, and on any campaigns change made
 * here (pause, resume, status).
 */
export function useCampaignDelivery(id: string, enabled = true) {
  return useQuery({
    ...campaignDeliveryQueryOptions(id),
    enabled,
    refetchInterval: (query) => {
      const state = query.state.data?.progress.dispatchState;
      return state === 'running' || state === 'waiting' || state === 'paused'
        ? SENDING_REFRESH_MS
        : false;
    },
  });
}
