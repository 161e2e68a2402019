import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageBody } from '@herald/contract';
import { api } from '../../lib/api-client';
import { announcementsRootKey } from './get-announcement-history';

/** DELETE /api/announcements/{id} (Admin). */
export function deleteAnnouncement(id: string): Promise<MessageBody> {
  return api<MessageBody>(`/announcements/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAnnouncement,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: announcementsRootKey }),
  });
}
