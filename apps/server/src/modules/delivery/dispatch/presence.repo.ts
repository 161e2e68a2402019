import type pg from 'pg';

/**
 * The presence session's two statements (presence.ts). They run on the presence's own
 * connection, not the pool: the advisory lock lives exactly as long as that session.
 */

/** The first key of the presence advisory locks: the dispatcher's space ('Hrld'). */
export const PRESENCE_LOCK_SPACE = 0x48726c64;

/** Takes the presence lock of `key` if no session holds it; answers whether it did. */
export async function tryPresenceLock(client: pg.Client, key: number): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>(
    'SELECT pg_try_advisory_lock($1::int, $2::int) AS ok',
    [PRESENCE_LOCK_SPACE, key],
  );
  return rows[0]?.ok === true;
}

/** Takes a key's (campaign, key) pairs off the record: every row it claimed was written. */
export async function forgetClaims(client: pg.Client, key: number): Promise<void> {
  await client.query('DELETE FROM dispatch_claimers WHERE key = $1::int', [key]);
}
