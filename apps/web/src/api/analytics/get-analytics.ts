import { keepPreviousData, useQueries } from '@tanstack/react-query';
import type {
  AnalyticsRange,
  AnalyticsSummary,
  CreditsTrendRow,
  NameValueRow,
  TopUserRow,
} from '@herald/contract';
import { api } from '../../lib/api-client';

/** The five analytics reads (the contract's analytics schemas), each for one date range. */
const get = <T>(path: string, range: AnalyticsRange, signal?: AbortSignal) =>
  api<T>(`/analytics${path}`, { query: { range }, signal });

export interface AnalyticsData {
  summary: AnalyticsSummary | undefined;
  trend: CreditsTrendRow[] | undefined;
  creditTypes: NameValueRow[] | undefined;
  campaignTypes: NameValueRow[] | undefined;
  topUsers: TopUserRow[] | undefined;
  isError: boolean;
  isLoading: boolean;
}

/** The five calls fetched together (in parallel) for the selected range. */
export function useAnalytics(range: AnalyticsRange): AnalyticsData {
  const [summary, trend, creditTypes, campaignTypes, topUsers] = useQueries({
    queries: [
      {
        queryKey: ['analytics', 'summary', range],
        placeholderData: keepPreviousData,
        queryFn: ({ signal }) => get<AnalyticsSummary>('', range, signal),
      },
      {
        queryKey: ['analytics', 'credits-trend', range],
        placeholderData: keepPreviousData,
        queryFn: ({ signal }) => get<CreditsTrendRow[]>('/credits-trend', range, signal),
      },
      {
        queryKey: ['analytics', 'credit-types', range],
        placeholderData: keepPreviousData,
        queryFn: ({ signal }) => get<NameValueRow[]>('/credit-types', range, signal),
      },
      {
        queryKey: ['analytics', 'campaign-types', range],
        placeholderData: keepPreviousData,
        queryFn: ({ signal }) => get<NameValueRow[]>('/campaign-types', range, signal),
      },
      {
        queryKey: ['analytics', 'top-users', range],
        placeholderData: keepPreviousData,
        queryFn: ({ signal }) => get<TopUserRow[]>('/top-users', range, signal),
      },
    ],
  });
  const all = [summary, trend, creditTypes, campaignTypes, topUsers];
  return {
    summary: summary.data,
    trend: trend.data,
    creditTypes: creditTypes.data,
    campaignTypes: campaignTypes.data,
    topUsers: topUsers.data,
    isError: all.some((q) => q.isError),
    isLoading: all.some((q) => q.isPending),
  };
}
