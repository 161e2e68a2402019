import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { REPORT_PAGE_DEFAULT, type CampaignReport, type ReportFilter } from '@herald/contract';
import { api } from '../../lib/api-client';
import { campaignsRootKey } from './get-campaigns';

/** What the report dialog shows: a status group and digits searched within the number. */
export interface ReportView {
  status: ReportFilter;
  /** Digits (1-15), or '' for no search. */
  q: string;
}

export const ALL_ROWS: ReportView = { status: 'all', q: '' };

/** The view as query parameters (the defaults left out). */
export function reportViewQuery(view: ReportView): Record<string, string> {
  const query: Record<string, string> = {};
  if (view.status !== 'all') query.status = view.status;
  if (view.q) query.q = view.q;
  return query;
}

/** GET /api/campaigns/{id}/report: the whole report's counts and one keyset page of the view. */
export function getCampaignReport(
  id: string,
  view: ReportView,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<CampaignReport> {
  return api<CampaignReport>(`/campaigns/${encodeURIComponent(id)}/report`, {
    query: { ...reportViewQuery(view), cursor, limit: REPORT_PAGE_DEFAULT },
    signal,
  });
}

export function campaignReportQueryOptions(id: string, view: ReportView = ALL_ROWS) {
  return infiniteQueryOptions({
    queryKey: [...campaignsRootKey, 'report', id, view.status, view.q] as const,
    queryFn: ({ pageParam, signal }) => getCampaignReport(id, view, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    gcTime: 30_000,
  });
}

export function useCampaignReport(id: string, view: ReportView = ALL_ROWS) {
  return useInfiniteQuery({
    ...campaignReportQueryOptions(id, view),
    refetchOnWindowFocus: false,
    // The summary and the last rows stay on screen while another filter loads.
    placeholderData: keepPreviousData,
  });
}
