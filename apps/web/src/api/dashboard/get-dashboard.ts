import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Dashboard } from '@herald/contract';
import { api } from '../../lib/api-client';

/** GET /api/dashboard: live figures for the caller's scope (docs/product.md, Decisions). */
export function getDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return api<Dashboard>('/dashboard', { signal });
}

export function dashboardQueryOptions() {
  return queryOptions({
    queryKey: ['dashboard'],
    queryFn: ({ signal }) => getDashboard(signal),
  });
}

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}
