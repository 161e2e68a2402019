import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Sender } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every senders cache lives under this key. */
export const sendersRootKey = ['senders'] as const;

/** GET /api/delivery/senders (Admin): each sender with its provider, limits and today's sends. */
export function getSenders(signal?: AbortSignal): Promise<Sender[]> {
  return api<Sender[]>('/delivery/senders', { signal });
}

export function sendersQueryOptions() {
  return queryOptions({
    queryKey: [...sendersRootKey, 'list'] as const,
    queryFn: ({ signal }) => getSenders(signal),
  });
}

export function useSenders() {
  return useQuery(sendersQueryOptions());
}
