import { sql } from 'kysely';
import type { ApiKeyKind } from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';

/**
 * Queries of API keys (docs/api.md). Every read names its owner or, for the Admin's view of
 * every user's keys, none; the service decides who may ask which. No read returns the hash.
 */

/** Where a page starts: the last row's created_at in microseconds and its id. */
export interface ApiKeyCursor {
  micros: string;
  id: string;
}

const COLUMNS = [
  'k.id',
  'k.name',
  'k.kind',
  'k.last4',
  'k.created_at',
  'k.last_used_at',
  'k.user_id',
  'u.name as owner_name',
  'u.email as owner_email',
] as const;

function withOwner(db: DbOrTx, userId: string | undefined) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .$if(userId !== undefined, (q) => q.where('k.user_id', '=', userId!))
    .select(COLUMNS)
    .select(
      sql<string>`(extract(epoch from k.created_at) * 1000000)::bigint::text`.as('cursor_micros'),
    );
}

/** One page, newest first, after `cursor` (api_keys_user_page_idx or api_keys_page_idx). */
export function listPage(
  db: DbOrTx,
  userId: string | undefined,
  cursor: ApiKeyCursor | undefined,
  limit: number,
) {
  return withOwner(db, userId)
    .$if(cursor !== undefined, (q) =>
      q.where(
        sql<boolean>`(k.created_at, k.id) < (timestamptz 'epoch' + ${cursor!.micros}::bigint * interval '1 microsecond', ${cursor!.id}::uuid)`,
      ),
    )
    .orderBy('k.created_at', 'desc')
    .orderBy('k.id', 'desc')
    .limit(limit)
    .execute();
}

export type ApiKeyRow = Awaited<ReturnType<typeof listPage>>[number];

export function findById(db: DbOrTx, id: string): Promise<ApiKeyRow | undefined> {
  return withOwner(db, undefined).where('k.id', '=', id).executeTakeFirst();
}

/**
 * Locks the owner's row, so two creations at once count each other's keys, and answers how many
 * keys the owner holds.
 */
export async function lockOwnerAndCount(tx: Tx, userId: string): Promise<number> {
  await tx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
  const { n } = await tx
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export interface NewApiKey {
  userId: string;
  name: string;
  kind: ApiKeyKind;
  hash: Buffer;
  last4: string;
  tokenVersion: number;
}

export async function insertKey(tx: Tx, k: NewApiKey): Promise<string> {
  const { id } = await tx
    .insertInto('api_keys')
    .values({
      user_id: k.userId,
      name: k.name,
      kind: k.kind,
      hash: k.hash,
      last4: k.last4,
      token_version: k.tokenVersion,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Deletes the key; answers whether it was there. */
export async function deleteKey(db: DbOrTx, id: string): Promise<boolean> {
  const res = await db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
