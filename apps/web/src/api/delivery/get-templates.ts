import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CampaignTemplates, CreditType, SenderTemplate } from '@herald/contract';
import { api } from '../../lib/api-client';

/** Every templates cache (a sender's, a credit type's) lives under this key. */
export const templatesRootKey = ['templates'] as const;

/** GET /api/delivery/senders/{id}/templates (Admin): a WhatsApp sender's templates. */
export function getSenderTemplates(senderId: string, signal?: AbortSignal) {
  return api<SenderTemplate[]>(`/delivery/senders/${encodeURIComponent(senderId)}/templates`, {
    signal,
  });
}

export function useSenderTemplates(senderId: string) {
  return useQuery(
    queryOptions({
      queryKey: [...templatesRootKey, 'sender', senderId] as const,
      queryFn: ({ signal }) => getSenderTemplates(senderId, signal),
    }),
  );
}

/**
 * GET /api/delivery/campaign-templates?creditType= (every role): the templates of the sender
 * the credit type goes through now; none unless that is a WhatsApp sender.
 */
export function getCampaignTemplates(creditType: CreditType, signal?: AbortSignal) {
  return api<CampaignTemplates>('/delivery/campaign-templates', {
    query: { creditType },
    signal,
  }).then((r) => r.templates);
}

export function campaignTemplatesQueryOptions(creditType: CreditType) {
  return queryOptions({
    queryKey: [...templatesRootKey, 'campaign', creditType] as const,
    queryFn: ({ signal }) => getCampaignTemplates(creditType, signal),
  });
}

export function useCampaignTemplates(creditType: CreditType) {
  return useQuery(campaignTemplatesQueryOptions(creditType));
}
