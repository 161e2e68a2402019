import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageBody } from '@herald/contract';
import { api } from '../../lib/api-client';
import { apiKeysRootKey } from './get-api-keys';

/** DELETE /api/api-keys/{id}: one's own key, or any for the Admin; it stops working at once. */
export function revokeApiKey(id: string): Promise<MessageBody> {
  return api<MessageBody>(`/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysRootKey }),
  });
}
