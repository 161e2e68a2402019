import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../db/database.js';

/** The `idempotency_keys` table's statements, for runIdempotent (idempotency.ts). */

export interface KeyOf {
  userId: string;
  key: string;
}

/**
 * Claims the key for this request; answers false when the user already holds it (a concurrent
 * claim of the same key waits on the unique index until the first one commits or rolls back).
 */
export async function claimKey(
  tx: Tx,
  k: KeyOf & { endpoint: string; requestHash: string },
): Promise<boolean> {
  const claimed = await tx
    .insertInto('idempotency_keys')
    .values({ user_id: k.userId, key: k.key, endpoint: k.endpoint, request_hash: k.requestHash })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Stores the reply of the request that claimed the key, in its transaction. */
export async function storeReply(tx: Tx, k: KeyOf, status: number, body: unknown): Promise<void> {
  await tx
    .updateTable('idempotency_keys')
    .set({ status, response: sql`${JSON.stringify(body)}::jsonb` })
    .where('user_id', '=', k.userId)
    .where('key', '=', k.key)
    .execute();
}

export function findKey(tx: Tx, k: KeyOf) {
  return tx
    .selectFrom('idempotency_keys')
    .select(['endpoint', 'request_hash', 'status', 'response'])
    .where('user_id', '=', k.userId)
    .where('key', '=', k.key)
    .executeTakeFirst();
}

/** Deletes keys created before `before` (on the created_at index); answers how many. */
export async function deleteKeysBefore(db: DbOrTx, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
