import { useMutation } from '@tanstack/react-query';
import type { AdminResetPasswordBody, MessageBody } from '@herald/contract';
import { api } from '../../lib/api-client';

export interface AdminResetPasswordArgs extends AdminResetPasswordBody {
  id: string;
}

/** Admin sets a user's password; the server ends that user's sessions. */
export function adminResetPassword({ id, newPassword }: AdminResetPasswordArgs) {
  return api<MessageBody>(`/users/admin-reset-password/${encodeURIComponent(id)}`, {
    method: 'PUT',
    body: { newPassword },
  });
}

export function useAdminResetPassword() {
  return useMutation({ mutationFn: adminResetPassword });
}
