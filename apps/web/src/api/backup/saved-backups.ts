import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SavedBackupList } from '@herald/contract';
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

/** GET /api/backup/saved/{name}: one saved backup, saved by the browser. */
export async function downloadSavedBackup(name: string): Promise<void> {
  const file = await fetchFile(`/backup/saved/${encodeURIComponent(name)}`, {
    fallbackName: name,
  });
  saveFile(file);
}
