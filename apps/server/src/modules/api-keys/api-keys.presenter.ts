import type { ApiKey } from '@herald/contract';
import type { ApiKeyRow } from './api-keys.repo.js';

/** A row as the contract's ApiKey, its owner named; the hash never leaves the repository. */
export function presentApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    last4: row.last4,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
    owner: { id: row.user_id, name: row.owner_name, email: row.owner_email },
  };
}
