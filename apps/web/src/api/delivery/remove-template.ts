import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { templatesRootKey } from './get-templates';

/** DELETE /api/delivery/templates/{id} (Admin); campaigns keep their own copy of it. */
export function removeTemplate(id: string): Promise<void> {
  return api<void>(`/delivery/templates/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useRemoveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesRootKey }),
  });
}
