import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CleanupDataType, CleanupReply } from '@herald/contract';
import { api } from '../../lib/api-client';

export interface CleanupRequest {
  dataType: CleanupDataType;
  fromDate: string;
  toDate: string;
  /** The word the Admin typed (CLEANUP_CONFIRM_WORD); the server refuses the request without it. */
  confirm: string;
}

/** DELETE /api/data/cleanup (Admin): dataType, fromDate, toDate; a backup is saved first. */
export function cleanupData(req: CleanupRequest): Promise<CleanupReply> {
  return api<CleanupReply>('/data/cleanup', {
    method: 'DELETE',
    body: { ...req, tzOffset: new Date().getTimezoneOffset() },
  });
}

/** Everything may have changed: every cached list is read again. */
export function useCleanupData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cleanupData,
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
