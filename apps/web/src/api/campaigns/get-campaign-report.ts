import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { REPORT_PAGE_DEFAULT, type CampaignReport } from '@herald/contract';
import { api } from '../../lib/api-client';
import { campaignsRootKey } from './get-campaigns';

/** GET /api/campaigns/{id}/report: the counts and one keyset page of entries. */
export function getCampaignReport(
  id: string,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<CampaignReport> {
  return api<CampaignReport>(`/campaigns/${encodeURIComponent(id)}/report`, {
    query: { cursor, limit: REPORT_PAGE_DEFAULT },
    signal,
  });
}

export function campaignReportQueryOptions(id: string) {
  return infiniteQueryOptions({
    queryKey: [...campaignsRootKey, 'report', id] as const,
    queryFn: ({ pageParam, signal }) => getCampaignReport(id, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    gcTime: 30_000,
  });
}

export function useCampaignReport(id: string) {
  return useInfiniteQuery({ ...campaignReportQueryOptions(id), refetchOnWindowFocus: false });
}
