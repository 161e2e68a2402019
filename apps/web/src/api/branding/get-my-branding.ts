import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Branding } from '@herald/contract';
import { api } from '../../lib/api-client';

/**
 * GET /api/whitelabel/my-branding: the nearest branded creator's name and logo
 * (docs/product.md, Branding).
 */
export function getMyBranding(signal?: AbortSignal): Promise<Branding> {
  return api<Branding>('/whitelabel/my-branding', { signal });
}

export function myBrandingQueryOptions() {
  return queryOptions({
    queryKey: ['branding', 'mine'],
    queryFn: ({ signal }) => getMyBranding(signal),
    staleTime: 5 * 60_000,
  });
}

export function useMyBranding() {
  return useQuery(myBrandingQueryOptions());
}
