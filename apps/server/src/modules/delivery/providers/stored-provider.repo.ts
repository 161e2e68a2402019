import type { DbOrTx } from '../../../db/database.js';
import type { StoredProvider } from './stored-provider.js';

/** A stored provider's row by its key, as the webhooks' adapters are built from it. */

const STORED_COLUMNS = [
  'id',
  'key',
  'kind',
  'builtin',
  'enabled',
  'settings',
  'secrets',
  'callback_token',
  'updated_at',
] as const;

export function readStoredProvider(db: DbOrTx, key: string): Promise<StoredProvider | undefined> {
  return db
    .selectFrom('providers')
    .select(STORED_COLUMNS)
    .where('key', '=', key)
    .executeTakeFirst();
}
