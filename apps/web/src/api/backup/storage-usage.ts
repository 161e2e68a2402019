import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StorageUsage } from '@herald/contract';
import { api } from '../../lib/api-client';
import { backupRootKey } from './saved-backups';

/** GET /api/admin/storage-usage (Admin): file and database MB, rows per table. */
export async function getStorageUsage(signal?: AbortSignal): Promise<StorageUsage> {
  const reply = await api<Partial<StorageUsage>>('/admin/storage-usage', { signal });
  return {
    fileStorage: { megabytes: reply?.fileStorage?.megabytes ?? 0 },
    databaseStorage: {
      megabytes: reply?.databaseStorage?.megabytes ?? 0,
      collections: Array.isArray(reply?.databaseStorage?.collections)
        ? reply.databaseStorage.collections
        : [],
    },
  };
}

export function storageUsageQueryOptions() {
  return queryOptions({
    queryKey: [...backupRootKey, 'storage'] as const,
    queryFn: ({ signal }) => getStorageUsage(signal),
  });
}

export function useStorageUsage() {
  return useQuery(storageUsageQueryOptions());
}
