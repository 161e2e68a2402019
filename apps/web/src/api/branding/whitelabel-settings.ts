import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WhitelabelSettings, WhitelabelSettingsReply } from '@herald/contract';
import { api } from '../../lib/api-client';

const settingsKey = ['branding', 'settings'] as const;

/** GET /api/whitelabel/settings: the caller's own company name and logo. */
export function getWhitelabelSettings(signal?: AbortSignal): Promise<WhitelabelSettings> {
  return api<WhitelabelSettings>('/whitelabel/settings', { signal });
}

export function whitelabelSettingsQueryOptions() {
  return queryOptions({
    queryKey: settingsKey,
    queryFn: ({ signal }) => getWhitelabelSettings(signal),
  });
}

export function useWhitelabelSettings() {
  return useQuery(whitelabelSettingsQueryOptions());
}

/** POST /api/whitelabel/settings: multipart companyName, optional companyLogo file, removeLogo. */
export function saveWhitelabelSettings(data: FormData): Promise<WhitelabelSettingsReply> {
  return api<WhitelabelSettingsReply>('/whitelabel/settings', { method: 'POST', body: data });
}

export function useSaveWhitelabelSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveWhitelabelSettings,
    onSuccess: ({ companyName, companyLogo }) => {
      queryClient.setQueryData(settingsKey, { companyName, companyLogo });
      // The saver's own layout shows the change at once (its users on their next page load).
      return queryClient.invalidateQueries({ queryKey: ['branding', 'mine'] });
    },
  });
}
