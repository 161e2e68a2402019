import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UploadReportReply } from '@herald/contract';
import { api } from '../../lib/api-client';
import { profilesRootKey } from '../profile/get-profile';
import { campaignsRootKey } from './get-campaigns';

export interface UploadCampaignReportArgs {
  id: string;
  file: File;
}

/** POST /api/campaigns/{id}/upload-report (Admin): replaces the delivery report. */
export function uploadCampaignReport({ id, file }: UploadCampaignReportArgs) {
  const body = new FormData();
  body.append('reportFile', file, file.name);
  return api<UploadReportReply>(`/campaigns/${encodeURIComponent(id)}/upload-report`, {
    method: 'POST',
    body,
  });
}

export function useUploadCampaignReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadCampaignReport,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: campaignsRootKey }),
        queryClient.invalidateQueries({ queryKey: profilesRootKey }),
      ]),
  });
}
