import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody, ChangePasswordReply } from '@herald/contract';
import { api } from '../../lib/api-client';
import { replaceToken } from '../../lib/auth-store';

export function changePassword(body: ChangePasswordBody): Promise<ChangePasswordReply> {
  return api<ChangePasswordReply>('/users/change-password', { method: 'PUT', body });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    // The change ends every older token, including the one this tab holds.
    onSuccess: (reply) => replaceToken(reply.token),
  });
}
