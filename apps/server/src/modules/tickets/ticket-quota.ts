import { TICKET_ATTACHMENT_BYTES_PER_DAY, server as msg } from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import * as repo from './tickets.repo.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A user's attachments of the last 24 hours stay within the daily bytes (413 past them). Run
 * once before the files are stored (an early refusal) and again in the transaction that inserts
 * the rows, under the user's quota lock: only that second check holds against parallel uploads.
 */
export async function checkAttachmentQuota(db: DbOrTx, userId: string, bytes: number) {
  const used = await repo.attachmentBytesSince(db, userId, new Date(Date.now() - DAY_MS));
  if (used + bytes > TICKET_ATTACHMENT_BYTES_PER_DAY) {
    throw new AppError(
      413,
      msg.ticketAttachmentQuota(TICKET_ATTACHMENT_BYTES_PER_DAY / (1024 * 1024)),
    );
  }
}
