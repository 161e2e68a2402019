import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { AUDIT_LOG_PAGE_DEFAULT, type AuditLogReply } from '@herald/contract';
import { api } from '../../lib/api-client';

export const auditLogRootKey = ['audit-log'] as const;

/** The filters as the form holds them; '' means "not set". Dates are the viewer's local days. */
export interface AuditFilterValues {
  fromDate: string;
  toDate: string;
  actor: string;
  action: string;
  targetType: string;
  target: string;
}

export const EMPTY_AUDIT_FILTERS: AuditFilterValues = {
  fromDate: '',
  toDate: '',
  actor: '',
  action: '',
  targetType: '',
  target: '',
};

/** The start of a local day (yyyy-mm-dd) as an ISO instant; `days` later for an end. */
export function localDayInstant(day: string, days = 0): string {
  const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
  return new Date(y, m - 1, d + days).toISOString();
}

/**
 * Query parameters shared by the list and the export: the local days become instants (From at
 * the day's start, To up to the next day's start, so the To day is included).
 */
export function auditParams(filters: AuditFilterValues): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.fromDate) params.from = localDayInstant(filters.fromDate);
  if (filters.toDate) params.to = localDayInstant(filters.toDate, 1);
  for (const key of ['actor', 'action', 'targetType', 'target'] as const) {
    const value = filters[key].trim();
    if (value) params[key] = value;
  }
  return params;
}

/** GET /api/audit-log: one page, newest first; `nextCursor` is null at the end. */
export function getAuditLog(
  filters: AuditFilterValues,
  before: string | undefined,
  signal?: AbortSignal,
): Promise<AuditLogReply> {
  return api<AuditLogReply>('/audit-log', {
    query: { ...auditParams(filters), before, limit: AUDIT_LOG_PAGE_DEFAULT },
    signal,
  });
}

export function auditLogQueryOptions(filters: AuditFilterValues) {
  return infiniteQueryOptions({
    queryKey: [...auditLogRootKey, filters] as const,
    queryFn: ({ pageParam, signal }) => getAuditLog(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The filtered log, page by page; no refetch on focus (it would reload every page). */
export function useAuditLog(filters: AuditFilterValues, enabled: boolean) {
  return useInfiniteQuery({
    ...auditLogQueryOptions(filters),
    enabled,
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });
}
