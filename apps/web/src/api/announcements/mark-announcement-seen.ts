import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { announcementsRootKey } from './get-announcement-history';

/** PUT /api/announcements/{id}/seen. */
export function markAnnouncementSeen(id: string): Promise<void> {
  return api<void>(`/announcements/${encodeURIComponent(id)}/seen`, { method: 'PUT' });
}

export function useMarkAnnouncementSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAnnouncementSeen,
    onSettled: () => queryClient.invalidateQueries({ queryKey: announcementsRootKey }),
  });
}
