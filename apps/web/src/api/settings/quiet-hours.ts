import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuietHours, QuietHoursBody, QuietHoursReply } from '@herald/contract';
import { api } from '../../lib/api-client';

const KEY = ['settings', 'quiet-hours'] as const;

/** GET /api/settings/quiet-hours: the caller's own window and the one in force. */
export function useQuietHours() {
  return useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api<QuietHours>('/settings/quiet-hours', { signal }),
  });
}

/** PUT /api/settings/quiet-hours: a window of one's own, or both null to inherit. */
export function useSaveQuietHours() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: QuietHoursBody) =>
      api<QuietHoursReply>('/settings/quiet-hours', { method: 'PUT', body }),
    onSuccess: ({ own, effective, canInherit }) =>
      client.setQueryData<QuietHours>(KEY, { own, effective, canInherit }),
  });
}
