import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookList } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every cache of the webhooks (the list and each endpoint's deliveries) lives under this key. */
export const webhooksRootKey = ['webhooks'] as const;

/** GET /api/webhooks: the caller's endpoints, whether URLs must be https, its threshold. */
export function getWebhooks(signal?: AbortSignal): Promise<WebhookList> {
  return api<WebhookList>('/webhooks', { signal });
}

export function webhooksQueryOptions() {
  return queryOptions({
    queryKey: [...webhooksRootKey, 'list'] as const,
    queryFn: ({ signal }) => getWebhooks(signal),
  });
}

export function useWebhooks() {
  return useQuery(webhooksQueryOptions());
}
