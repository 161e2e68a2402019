import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { compiler, param, prepared } from '../db/prepared.js';

/** The auth hook's statements for API keys (api-key-auth.ts, docs/api.md). */

const keyByHash = prepared('auth.apiKeyByHash', { hash: param<Buffer>() }, (p) =>
  compiler
    .selectFrom('api_keys')
    .select(['id', 'user_id', 'kind', 'token_version', 'last_used_at'])
    .where('hash', '=', p.hash),
);

export type ApiKeyAuthRow = Awaited<ReturnType<typeof keyByHash.run>>[number];

/** The key with this hash; none when it never existed or was revoked (its row deleted). */
export async function findKeyByHash(db: Db, hash: Buffer): Promise<ApiKeyAuthRow | undefined> {
  return (await keyByHash.run(db, { hash }))[0];
}

/**
 * Marks the key used now, unless another request (on any instance) did within `stepSeconds`:
 * the condition keeps two instances from both writing the same minute.
 */
export async function touchLastUsed(db: Db, id: string, stepSeconds: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<', sql<Date>`now() - make_interval(secs => ${stepSeconds})`),
      ]),
    )
    .execute();
}
