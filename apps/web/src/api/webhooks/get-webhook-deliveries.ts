import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import {
  WEBHOOK_DELIVERIES_PAGE_DEFAULT,
  type WebhookDelivery,
  type WebhookDeliveryPage,
} from '@herald/contract';
import { api } from '../../lib/api-client';
import { webhooksRootKey } from './get-webhooks';

/** GET /api/webhooks/{id}/deliveries: one page of attempts, newest first. */
export async function getWebhookDeliveries(
  id: string,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<WebhookDeliveryPage> {
  const reply = await api<Partial<WebhookDeliveryPage>>(
    `/webhooks/${encodeURIComponent(id)}/deliveries`,
    { signal, query: { limit: WEBHOOK_DELIVERIES_PAGE_DEFAULT, cursor } },
  );
  return {
    deliveries: Array.isArray(reply?.deliveries) ? reply.deliveries : [],
    nextCursor: reply?.nextCursor ?? null,
  };
}

export function webhookDeliveriesQueryOptions(id: string) {
  return infiniteQueryOptions({
    queryKey: [...webhooksRootKey, 'deliveries', id] as const,
    queryFn: ({ pageParam, signal }) => getWebhookDeliveries(id, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * One endpoint's delivery log, page by page. `pollEvery`, given the newest delivery after each
 * fetch, answers how soon to fetch again (false: not until asked), e.g. after a test event.
 */
export function useWebhookDeliveries(
  id: string,
  pollEvery?: (newest: WebhookDelivery | undefined) => number | false,
) {
  return useInfiniteQuery({
    ...webhookDeliveriesQueryOptions(id),
    refetchInterval: (query) =>
      pollEvery ? pollEvery(query.state.data?.pages[0]?.deliveries[0]) : false,
  });
}
