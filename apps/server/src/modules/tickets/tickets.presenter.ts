import {
  supportAuthor,
  TICKET_ADMIN_ASSIGNEE,
  type Ticket,
  type TicketDetail,
  type TicketRepliesPage,
} from '@herald/contract';
import type { TicketView } from './tickets.repo.js';
import type * as repo from './tickets.repo.js';
import type { repliesPage } from './ticket-replies.repo.js';

export type ReplyRow = Awaited<ReturnType<typeof repliesPage>>[number];
type AttachmentRow = Awaited<ReturnType<typeof repo.attachmentsOf>>[number];

/** What leaves the server of a ticket: never the stored file names or the owner's chain. */
export function presentTicket(row: TicketView): Ticket {
  return {
    _id: row.id,
    number: Number(row.number),
    subject: row.subject,
    description: row.description,
    status: row.status,
    issueType: row.issue_type,
    userEmail: row.owner_email,
    userName: row.owner_name,
    assignedTo: row.assignee_email ?? TICKET_ADMIN_ASSIGNEE,
    relatedCampaign: row.related_campaign,
    relatedUser: row.related_user,
    relatedTransaction: row.related_transaction,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * A page of replies as read newest first, `limit` + 1 at most: shown oldest first, the cursor
 * (the oldest shown reply's position) only when a row beyond the page says an earlier one follows.
 * `supportBrand`: the company that serves the viewer, given when the viewer is not an Admin; an
 * Admin's reply then reads as that company's support instead of the Admin's address.
 */
export function presentReplies(
  rows: readonly ReplyRow[],
  limit: number,
  supportBrand?: string,
): TicketRepliesPage {
  const page = rows.slice(0, limit).reverse();
  const oldest = page[0];
  return {
    replies: page.map((r) => {
      const support = supportBrand !== undefined && r.author_role === 'Admin';
      return {
        _id: r.id,
        author: support ? supportAuthor(supportBrand) : r.user_email,
        support,
        message: r.message,
        createdAt: r.created_at.toISOString(),
      };
    }),
    earlierRepliesCursor:
      rows.length > limit && oldest ? `${oldest.cursor_micros}_${oldest.id}` : null,
  };
}

export function presentDetail(
  row: TicketView,
  replies: TicketRepliesPage,
  attachments: AttachmentRow[],
): TicketDetail {
  return {
    ...presentTicket(row),
    attachments: attachments.map((a) => ({
      id: a.id,
      name: a.original_name,
      mime: a.mime,
      size: Number(a.size),
    })),
    ...replies,
  };
}
