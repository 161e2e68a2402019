import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageBody, SecuritySettings, SecuritySettingsReply } from '@herald/contract';
import { api } from '../../lib/api-client';
import { usersRootKey } from './get-users';

/** Admin: ends a user's two-factor sign-in (and the user's sessions and API keys). */
export function useResetTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<MessageBody>(`/users/${encodeURIComponent(id)}/two-factor`, { method: 'DELETE' }),
    // The users' lists and profiles (under the same root) show whether it is on.
    onSuccess: () => client.invalidateQueries({ queryKey: usersRootKey }),
  });
}

const SETTINGS_KEY = ['settings', 'security'] as const;

/** Admin: whether two-factor sign-in is required for Admins and Resellers; audit retention. */
export function useSecuritySettings() {
  return useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: ({ signal }) => api<SecuritySettingsReply>('/settings/security', { signal }),
  });
}

export function useSaveSecuritySettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SecuritySettings) =>
      api<SecuritySettingsReply>('/settings/security', { method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(SETTINGS_KEY, saved),
  });
}
