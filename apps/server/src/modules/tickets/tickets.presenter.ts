import {
  supportAuthor,
  TICKET_ADMIN_ASSIGNEE,
  type Ticket,
  type TicketDetail,
} from '@herald/contract';
import type { TicketView } from './tickets.repo.js';
import type * as repo from './tickets.repo.js';

type ReplyRow = Awaited<ReturnType<typeof repo.repliesOf>>[number];
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
 * `supportBrand`: the company that serves the viewer, given when the viewer is not an Admin; an
 * Admin's reply then reads as that company's support instead of the Admin's address.
 */
export function presentDetail(
  row: TicketView,
  replies: ReplyRow[],
  attachments: AttachmentRow[],
  supportBrand?: string,
): TicketDetail {
  return {
    ...presentTicket(row),
    attachments: attachments.map((a) => ({
      id: a.id,
      name: a.original_name,
      mime: a.mime,
      size: Number(a.size),
    })),
    replies: replies.map((r) => {
      const support = supportBrand !== undefined && r.author_role === 'Admin';
      return {
        _id: r.id,
        author: support ? supportAuthor(supportBrand) : r.user_email,
        support,
        message: r.message,
        createdAt: r.created_at.toISOString(),
      };
    }),
  };
}
