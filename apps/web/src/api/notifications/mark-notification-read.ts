import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { notificationsRootKey } from './get-notifications';

/** PUT /api/notifications/{id}/read. */
export function markNotificationRead(id: string): Promise<void> {
  return api<void>(`/notifications/${encodeURIComponent(id)}/read`, { method: 'PUT' });
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsRootKey }),
  });
}

/** PUT /api/notifications/read-all: every notification of mine (announcements keep their own seen). */
export function markAllNotificationsRead(): Promise<{ message: string }> {
  return api<{ message: string }>('/notifications/read-all', { method: 'PUT' });
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsRootKey }),
  });
}
