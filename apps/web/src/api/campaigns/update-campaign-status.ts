import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CampaignReply, CampaignStatus } from '@herald/contract';
import { api } from '../../lib/api-client';
import { creditsRootKey } from '../credits/get-credits';
import { profilesRootKey } from '../profile/get-profile';
import { campaignsRootKey } from './get-campaigns';

export interface UpdateCampaignStatusArgs {
  id: string;
  status: CampaignStatus;
  /** Rejected only: the reason the owner reads. */
  reason?: string;
}

/** PUT /api/campaigns/status/{id}: Admin any status; others only a cancellation request. */
export function updateCampaignStatus({ id, status, reason }: UpdateCampaignStatusArgs) {
  return api<CampaignReply>(`/campaigns/status/${encodeURIComponent(id)}`, {
    method: 'PUT',
    body: reason ? { status, reason } : { status },
  });
}

export function useUpdateCampaignStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCampaignStatus,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: campaignsRootKey }),
        // Rejected and Cancelled refund the owner; leaving them debits again.
        queryClient.invalidateQueries({ queryKey: creditsRootKey }),
        queryClient.invalidateQueries({ queryKey: profilesRootKey }),
      ]),
  });
}
