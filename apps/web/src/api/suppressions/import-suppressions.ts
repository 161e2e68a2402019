import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SuppressionImportReply } from '@herald/contract';
import { api } from '../../lib/api-client';
import { suppressionsRootKey } from './get-suppressions';

/** POST /api/suppressions/import: a CSV of numbers into the caller's own list, all or none. */
export function importSuppressions(file: File): Promise<SuppressionImportReply> {
  const body = new FormData();
  body.append('file', file, file.name);
  return api<SuppressionImportReply>('/suppressions/import', { method: 'POST', body });
}

export function useImportSuppressions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importSuppressions,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: suppressionsRootKey }),
  });
}
