import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddSuppressionBody, AddSuppressionReply } from '@herald/contract';
import { api } from '../../lib/api-client';
import { suppressionsRootKey } from './get-suppressions';

/** POST /api/suppressions: adds one number to the caller's own list (409 when listed). */
export function addSuppression(body: AddSuppressionBody): Promise<AddSuppressionReply> {
  return api<AddSuppressionReply>('/suppressions', { method: 'POST', body });
}

export function useAddSuppression() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addSuppression,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: suppressionsRootKey }),
  });
}
