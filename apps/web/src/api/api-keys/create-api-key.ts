import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateApiKeyBody, CreateApiKeyReply } from '@herald/contract';
import { api } from '../../lib/api-client';
import { apiKeysRootKey } from './get-api-keys';

/** POST /api/api-keys: a new key of the caller's own; the reply holds its secret, once. */
export function createApiKey(body: CreateApiKeyBody): Promise<CreateApiKeyReply> {
  return api<CreateApiKeyReply>('/api-keys', { method: 'POST', body });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysRootKey }),
  });
}
