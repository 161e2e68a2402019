import { server as msg } from '@herald/contract';
import type { AppContext } from '../../context.js';
import { conflict } from '../../lib/app-error.js';
import { pruneSaved, saveBackup } from './backup-store.js';
import { tryLockManualBackup, unlockManualBackup } from './manual-backup.repo.js';

/**
 * POST /api/backup/save-to-server (docs/product.md, Backup and storage): one at a time across
 * every instance on the database, since each builds a full backup; then the manual backups are
 * pruned to the newest BACKUP_KEEP, as the scheduled ones are.
 */
export async function saveManualBackup(
  ctx: Pick<AppContext, 'pool' | 'config' | 'files'>,
): Promise<string> {
  const client = await ctx.pool.connect();
  try {
    if (!(await tryLockManualBackup(client))) throw conflict(msg.backupSaveRunning);
    try {
      const name = await saveBackup(ctx, 'manual');
      await pruneSaved(ctx, 'manual', ctx.config.backupKeep);
      return name;
    } finally {
      await unlockManualBackup(client);
    }
  } finally {
    client.release();
  }
}
