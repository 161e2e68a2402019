import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageBody, SavedBackupList } from '@herald/contract';
import { api } from '../../lib/api-client';
import { fetchFile, saveFile } from '../../lib/download';

export const backupRootKey = ['backup'] as const;

/** GET /api/backup/saved (Admin): the backups in DATA_DIR/backups/, newest first. */
export async function getSavedBackups(signal?: AbortSignal): Promise<SavedBackupList> {
  const reply = await api<Partial<SavedBackupList>>('/backup/saved', { signal });
  return { backups: Array.isArray(reply?.backups) ? reply.backups : [] };
}

export function savedBackupsQueryOptions() {
  return queryOptions({
    queryKey: [...backupRootKey, 'saved'] as const,
    queryFn: ({ signal }) => getSavedBackups(signal),
  });
}

export function useSavedBackups() {
  return useQuery(savedBackupsQueryOptions());
}

/** POST /api/backup/save-to-server (Admin): the server's message names the file. */
export function saveBackupToServer(): Promise<MessageBody> {
  return api<MessageBody>('/backup/save-to-server', { method: 'POST' });
}

export function useSaveBackupToServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBackupToServer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backupRootKey }),
  });
}

/** GET /api/backup/saved/{name}: one saved backup, saved by the browser. */
export async function downloadSavedBackup(name: string): Promise<void> {
  const file = await fetchFile(`/backup/saved/${encodeURIComponent(name)}`, {
    fallbackName: name,
  });
  saveFile(file);
}
