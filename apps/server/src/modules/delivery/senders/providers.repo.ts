import { sql } from 'kysely';
import type { ProviderKind } from '@herald/contract';
import type { DbOrTx } from '../../../db/database.js';
import type { StoredProvider } from '../providers/stored-provider.js';

/** The providers table (migration 0031): rows as stored, secrets sealed. */

export type ProviderRow = StoredProvider & {
  name: string;
  secret_hints: Record<string, string>;
  created_at: Date;
  sender_count: number;
};

function providersWithCounts(db: DbOrTx) {
  return db
    .selectFrom('providers as p')
    .select([
      'p.id',
      'p.key',
      'p.name',
      'p.kind',
      'p.builtin',
      'p.enabled',
      'p.settings',
      'p.secrets',
      'p.secret_hints',
      'p.callback_token',
      'p.created_at',
      'p.updated_at',
      sql<number>`(SELECT count(*)::int FROM senders s WHERE s.provider_id = p.id)`.as(
        'sender_count',
      ),
    ]);
}

export function listProviders(db: DbOrTx): Promise<ProviderRow[]> {
  return providersWithCounts(db).orderBy('p.builtin', 'desc').orderBy('p.name').execute();
}

export function getProvider(db: DbOrTx, id: string): Promise<ProviderRow | undefined> {
  return providersWithCounts(db).where('p.id', '=', id).executeTakeFirst();
}

export interface ProviderWrite {
  name: string;
  enabled: boolean;
  settings: Record<string, string>;
  secrets: Record<string, string>;
  secretHints: Record<string, string>;
}

export async function insertProvider(
  db: DbOrTx,
  id: string,
  kind: ProviderKind,
  w: ProviderWrite & { callbackToken: string },
): Promise<void> {
  await db
    .insertInto('providers')
    .values({
      id,
      kind,
      name: w.name,
      enabled: w.enabled,
      settings: JSON.stringify(w.settings),
      secrets: JSON.stringify(w.secrets),
      secret_hints: JSON.stringify(w.secretHints),
      callback_token: w.callbackToken,
    })
    .execute();
}

/** Writes the row; `updated_at` moves, so every instance rebuilds its adapters. */
export async function updateProvider(db: DbOrTx, id: string, w: ProviderWrite): Promise<boolean> {
  const res = await db
    .updateTable('providers')
    .set({
      name: w.name,
      enabled: w.enabled,
      settings: JSON.stringify(w.settings),
      secrets: JSON.stringify(w.secrets),
      secret_hints: JSON.stringify(w.secretHints),
      updated_at: sql`clock_timestamp()`,
    })
    .where('id', '=', id)
    .where('builtin', '=', false)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Deletes a provider without senders; false when it has some (or is built in, or gone). */
export async function deleteProvider(db: DbOrTx, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('providers')
    .where('id', '=', id)
    .where('builtin', '=', false)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('senders').select('id').whereRef('senders.provider_id', '=', 'providers.id'),
        ),
      ),
    )
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}
