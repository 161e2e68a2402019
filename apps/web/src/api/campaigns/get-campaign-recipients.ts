import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { RECIPIENT_PAGE_DEFAULT, type CampaignRecipients } from '@herald/contract';
import { api } from '../../lib/api-client';
import { campaignsRootKey } from './get-campaigns';

/** GET /api/campaigns/{id}/recipients: one keyset page of numbers, in number order. */
export function getCampaignRecipients(
  id: string,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<CampaignRecipients> {
  return api<CampaignRecipients>(`/campaigns/${encodeURIComponent(id)}/recipients`, {
    query: { cursor, limit: RECIPIENT_PAGE_DEFAULT },
    signal,
  });
}

/**
 * The recipients page by page, starting from the first slice the detail already carries
 * (`first`), so opening the dialog costs no extra request; later pages load on demand.
 */
export function campaignRecipientsQueryOptions(id: string, first: CampaignRecipients) {
  return infiniteQueryOptions({
    queryKey: [...campaignsRootKey, 'recipients', id] as const,
    queryFn: ({ pageParam, signal }) => getCampaignRecipients(id, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    initialData: { pages: [first], pageParams: [undefined] },
    // The list of a campaign never changes: no refetch of what was loaded, dropped on close.
    staleTime: Infinity,
    gcTime: 10_000,
  });
}

export function useCampaignRecipients(id: string, first: CampaignRecipients) {
  return useInfiniteQuery({
    ...campaignRecipientsQueryOptions(id, first),
    refetchOnWindowFocus: false,
  });
}
