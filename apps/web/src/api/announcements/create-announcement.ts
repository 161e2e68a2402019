import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateAnnouncementReply } from '@herald/contract';
import { api } from '../../lib/api-client';
import { announcementsRootKey } from './get-announcement-history';

/** POST /api/announcements (Admin): multipart fields of the create form plus `image`. */
export function createAnnouncement(data: FormData): Promise<CreateAnnouncementReply> {
  return api<CreateAnnouncementReply>('/announcements', { method: 'POST', body: data });
}

export function useCreateAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAnnouncement,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: announcementsRootKey }),
  });
}
