import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkApproveReply, CampaignReply } from '@herald/contract';
import { api } from '../../lib/api-client';
import { creditsRootKey } from '../credits/get-credits';
import { dashboardQueryOptions } from '../dashboard/get-dashboard';
import { profilesRootKey } from '../profile/get-profile';
import { campaignsRootKey } from './get-campaigns';

/** POST /api/campaigns/{id}/approve (Admin): a Submitted or Pending Approval campaign. */
export function approveCampaign(id: string) {
  return api<CampaignReply>(`/campaigns/${encodeURIComponent(id)}/approve`, { method: 'POST' });
}

export interface RejectCampaignArgs {
  id: string;
  reason: string;
}

/** POST /api/campaigns/{id}/reject (Admin): the reason goes to the owner. */
export function rejectCampaign({ id, reason }: RejectCampaignArgs) {
  return api<CampaignReply>(`/campaigns/${encodeURIComponent(id)}/reject`, {
    method: 'POST',
    body: { reason },
  });
}

/** POST /api/campaigns/approve (Admin): several at once, each outcome reported. */
export function approveCampaigns(ids: readonly string[]) {
  return api<BulkApproveReply>('/campaigns/approve', { method: 'POST', body: { ids } });
}

/**
 * After a decision the lists, the details and the Admin's queue count are stale, and a
 * rejection refunded the owner.
 */
function useRefreshAfterDecision() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: campaignsRootKey }),
      queryClient.invalidateQueries({ queryKey: dashboardQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: creditsRootKey }),
      queryClient.invalidateQueries({ queryKey: profilesRootKey }),
    ]);
}

export function useApproveCampaign() {
  const onSettled = useRefreshAfterDecision();
  return useMutation({ mutationFn: approveCampaign, onSettled });
}

export function useRejectCampaign() {
  const onSettled = useRefreshAfterDecision();
  return useMutation({ mutationFn: rejectCampaign, onSettled });
}

export function useApproveCampaigns() {
  const onSettled = useRefreshAfterDecision();
  return useMutation({ mutationFn: approveCampaigns, onSettled });
}
