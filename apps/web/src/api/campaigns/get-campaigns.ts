import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { CAMPAIGN_LIST_DEFAULT, type CampaignList } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every campaigns cache (lists, details, reports) lives under this key. */
export const campaignsRootKey = ['campaigns'] as const;

/** The four filters of the Campaigns screen as the form holds them; '' means "not set". */
export interface CampaignFilterValues {
  from: string;
  to: string;
  userEmail: string;
  status: string;
}

export const EMPTY_CAMPAIGN_FILTERS: CampaignFilterValues = {
  from: '',
  to: '',
  userEmail: '',
  status: '',
};

/** Query parameters for GET /api/campaigns; unset filters are left out. */
export function campaignListParams(filters: CampaignFilterValues): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters) as [keyof CampaignFilterValues, string][]) {
    if (value) params[key] = value;
  }
  return params;
}

/** GET /api/campaigns: one page, newest first; `nextCursor` is null at the end. */
export function getCampaigns(
  filters: CampaignFilterValues,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<CampaignList> {
  return api<CampaignList>('/campaigns', {
    query: {
      ...campaignListParams(filters),
      // From and To are the viewer's local days.
      tzOffset: new Date().getTimezoneOffset(),
      cursor,
      limit: CAMPAIGN_LIST_DEFAULT,
    },
    signal,
  });
}

export function campaignsQueryOptions(filters: CampaignFilterValues) {
  return infiniteQueryOptions({
    queryKey: [...campaignsRootKey, 'list', filters] as const,
    queryFn: ({ pageParam, signal }) => getCampaigns(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * The filtered campaigns, page by page. The previous result stays as placeholder data while
 * a filter change loads; no refetch on focus (it would reload every page scrolled so far).
 */
export function useCampaigns(filters: CampaignFilterValues, enabled = true) {
  return useInfiniteQuery({
    ...campaignsQueryOptions(filters),
    enabled,
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });
}
