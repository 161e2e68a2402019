import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageBody } from '@herald/contract';
import { api } from '../../lib/api-client';
import { campaignsRootKey } from '../campaigns/get-campaigns';

export type DeliveryControl = 'pause' | 'resume';

export interface ControlDeliveryArgs {
  id: string;
  action: DeliveryControl;
}

/** POST /api/campaigns/{id}/delivery/pause or /resume (Admin): holds or restarts the sending. */
export function controlCampaignDelivery({ id, action }: ControlDeliveryArgs): Promise<MessageBody> {
  return api<MessageBody>(`/campaigns/${encodeURIComponent(id)}/delivery/${action}`, {
    method: 'POST',
  });
}

export function useControlCampaignDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: controlCampaignDelivery,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsRootKey }),
  });
}
