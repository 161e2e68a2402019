import {
  TICKET_ATTACHMENT_BYTES_PER_DAY,
  TICKET_REPLIES_PAGE,
  server as msg,
  type TicketRepliesPage,
  type TicketReplyCursor,
} from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Actor } from '../../policies/scope.js';
import { servingBrandNames } from '../branding/branding.service.js';
import { presentReplies } from './tickets.presenter.js';
import * as repo from './tickets.repo.js';

/** Reads of tickets.service.ts kept apart: the conversation's pages and the attachment quota. */

/**
 * A page of the conversation as this viewer sees it: the newest replies, or those just older
 * than `before`. The platform's Admin answers under the brand that serves the viewer
 * (docs/product.md, Tickets): an Admin viewer sees who really replied.
 */
export async function repliesFor(
  db: DbOrTx,
  viewer: Actor,
  ticketId: string,
  before?: TicketReplyCursor,
): Promise<TicketRepliesPage> {
  const rows = await repo.repliesPage(db, ticketId, before, TICKET_REPLIES_PAGE);
  const hidesAdmin =
    viewer.role !== 'Admin' &&
    rows.slice(0, TICKET_REPLIES_PAGE).some((r) => r.author_role === 'Admin');
  const supportBrand = hidesAdmin
    ? (await servingBrandNames(db, [viewer.id])).get(viewer.id)
    : undefined;
  return presentReplies(rows, TICKET_REPLIES_PAGE, supportBrand);
}

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
