import type { AppContext } from '../../context.js';
import { recordAudit, type AuditActor } from '../audit/index.js';

/**
 * A backup file going out to the Admin (docs/audit.md): the whole database leaves Herald, so
 * each download is an entry of its own, written as the file starts to stream. No change goes
 * with it, and a download that cannot start (not found, gone) writes none.
 */
export function recordBackupDownload(
  ctx: Pick<AppContext, 'db'>,
  actor: AuditActor,
  backup: { id: string; filename: string },
): Promise<void> {
  return recordAudit(ctx.db, {
    actor,
    action: 'backup.download',
    target: { type: 'backup', id: backup.id, label: backup.filename, subjectUserId: null },
  });
}
