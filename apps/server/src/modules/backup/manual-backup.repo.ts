import type pg from 'pg';

/**
 * The save-to-server lock: a session advisory lock on a connection of its own, so an instance
 * that dies mid-save releases it with its connection (manual-backup.ts).
 */
export const MANUAL_BACKUP_LOCK = [0x42636b70 /* 'Bckp' */, 1] as const;

export async function tryLockManualBackup(client: pg.PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>(
    'SELECT pg_try_advisory_lock($1::int, $2::int) AS ok',
    [...MANUAL_BACKUP_LOCK],
  );
  return rows[0]?.ok === true;
}

export async function unlockManualBackup(client: pg.PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_unlock($1::int, $2::int)', [...MANUAL_BACKUP_LOCK]);
}
