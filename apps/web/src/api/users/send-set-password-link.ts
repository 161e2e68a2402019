import { useMutation } from '@tanstack/react-query';
import type { MessageBody } from '@herald/contract';
import { api } from '../../lib/api-client';

/** POST /api/users/{id}/set-password-link: mails the user a new link to set a password. */
export function sendSetPasswordLink(id: string) {
  return api<MessageBody>(`/users/${encodeURIComponent(id)}/set-password-link`, {
    method: 'POST',
  });
}

export function useSendSetPasswordLink() {
  return useMutation({ mutationFn: sendSetPasswordLink });
}
