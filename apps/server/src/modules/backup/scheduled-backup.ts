import type { AppContext } from '../../context.js';
import { pruneSaved, saveBackup } from './backup-store.js';

/** The job runner's task name for the scheduled backup (BACKUP_CRON, daily by default). */
export const SCHEDULED_BACKUP_TASK = 'scheduled-backup';
/** The crontab line used when no configuration is at hand (the BACKUP_CRON default). */
export const DEFAULT_BACKUP_CRON = '30 2 * * *';

/** Saves a scheduled backup, then keeps only the newest BACKUP_KEEP scheduled ones. */
export async function runScheduledBackup(
  ctx: Pick<AppContext, 'pool' | 'config' | 'files'>,
): Promise<{ name: string; pruned: number }> {
  const name = await saveBackup(ctx, 'scheduled');
  const pruned = await pruneSaved(ctx, 'scheduled', ctx.config.backupKeep);
  return { name, pruned };
}
