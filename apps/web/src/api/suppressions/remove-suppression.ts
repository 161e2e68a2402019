import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageBody } from '@herald/contract';
import { api } from '../../lib/api-client';
import { suppressionsRootKey } from './get-suppressions';

/** DELETE /api/suppressions/{id}: one's own entry, or any for the Admin. */
export function removeSuppression(id: string): Promise<MessageBody> {
  return api<MessageBody>(`/suppressions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useRemoveSuppression() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeSuppression,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: suppressionsRootKey }),
  });
}
