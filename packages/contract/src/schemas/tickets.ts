import { z } from 'zod';
import { TICKET_STATUSES, type TicketStatus } from '../statuses.js';
import { server as msg } from '../server-messages.js';
import { BigintCursorSchema, EmailSchema, text, createdAtIdCursor } from './common.js';
import { detectFileType, isPlainText, type FileType } from '../file-types.js';

/** Support tickets (docs/product.md, Tickets). */

export const TICKET_ISSUE_TYPES = ['Other', 'Campaign', 'User', 'Credits/Debits'] as const;
export type TicketIssueType = (typeof TICKET_ISSUE_TYPES)[number];

export const TICKET_SUBJECT_MAX = 200;
export const TICKET_MESSAGE_MAX = 5000;
export const TICKET_LIST_DEFAULT = 100;
export const TICKET_LIST_MAX = 500;
/**
 * Replies the ticket detail and each earlier page carry: a ticket holds up to
 * TICKET_REPLIES_MAX, and the detail answers after every change, so it sends the newest ones
 * and the conversation loads older pages on request.
 */
export const TICKET_REPLIES_PAGE = 50;
/** `assignedTo` when the ticket sits with the Admins (every new ticket, and after escalation). */
export const TICKET_ADMIN_ASSIGNEE = 'Admin';
export const TICKET_ESCALATED: TicketStatus = 'Escalated';
/** Statuses the dashboards count as open: everything not Resolved or Closed. */
export const OPEN_TICKET_STATUSES = [
  'Open',
  'In Progress',
  'Escalated',
] as const satisfies readonly TicketStatus[];

export const TicketStatusSchema = z.enum(TICKET_STATUSES, 'Choose a ticket status.');
export const TicketIssueTypeSchema = z.enum(TICKET_ISSUE_TYPES, 'Choose an issue type.');

const required = (label: string, empty: string, max: number) =>
  text({ error: empty }).trim().min(1, empty).max(max, msg.ticketTextTooLong(label, max));

/** An optional reference field of the create form: empty means "not set". */
const optionalRef = <T extends z.ZodType<unknown, string>>(schema: T) =>
  text()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(schema.optional());

/** The text fields of POST /api/tickets (multipart; the files are `attachments`). */
export const CreateTicketFieldsSchema = z.strictObject({
  subject: required('Subject', msg.ticketSubjectRequired, TICKET_SUBJECT_MAX),
  description: required('Description', msg.ticketDescriptionRequired, TICKET_MESSAGE_MAX),
  issueType: optionalRef(TicketIssueTypeSchema).transform((v) => v ?? 'Other'),
  relatedCampaign: optionalRef(z.uuid(msg.ticketRelatedNotFound('campaign'))),
  relatedUser: optionalRef(z.uuid(msg.ticketRelatedNotFound('user'))),
  relatedTransaction: optionalRef(
    z.string().regex(/^\d{1,18}$/, msg.ticketRelatedNotFound('transaction')),
  ),
});
export type CreateTicketFields = z.output<typeof CreateTicketFieldsSchema>;
/** The multipart file field of POST /api/tickets, repeated for each file. */
export const TICKET_ATTACHMENTS_FIELD = 'attachments';

export const ReplyTicketBodySchema = z.strictObject({
  message: required('Reply', msg.ticketReplyRequired, TICKET_MESSAGE_MAX),
});
export type ReplyTicketBody = z.infer<typeof ReplyTicketBodySchema>;

export const UpdateTicketStatusBodySchema = z.strictObject({ status: TicketStatusSchema });
export type UpdateTicketStatusBody = z.infer<typeof UpdateTicketStatusBodySchema>;

/** PUT /api/tickets/{id}/assign: 'Admin' or a Reseller's email. */
export const AssignTicketBodySchema = z.strictObject({
  assignee: z.union([z.literal(TICKET_ADMIN_ASSIGNEE), EmailSchema], {
    error: msg.ticketAssigneeInvalid,
  }),
});
export type AssignTicketBody = z.infer<typeof AssignTicketBodySchema>;

export const TicketAttachmentParamsSchema = z.object({
  id: z.uuid('Not found.'),
  attachmentId: z.uuid('Not found.'),
});

export const TicketListQuerySchema = z.object({
  cursor: optionalRef(BigintCursorSchema),
  limit: z.coerce.number().int().min(1).max(TICKET_LIST_MAX).default(TICKET_LIST_DEFAULT),
});
export type TicketListQuery = z.input<typeof TicketListQuerySchema>;
export type TicketListFilters = z.output<typeof TicketListQuerySchema>;

/**
 * Where an earlier page of replies starts: the oldest shown reply's created_at in microseconds
 * since the epoch and its id, as `earlierRepliesCursor` gave them. Missing or malformed: 400.
 */
export const TicketReplyCursorSchema = createdAtIdCursor();
export type TicketReplyCursor = z.output<typeof TicketReplyCursorSchema>;

/** GET /api/tickets/{id}/replies: the page of replies just older than `before`. */
export const TicketRepliesQuerySchema = z.object({ before: TicketReplyCursorSchema });
export type TicketRepliesQuery = z.input<typeof TicketRepliesQuerySchema>;

export const TicketAttachmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number(),
});
export type TicketAttachment = z.infer<typeof TicketAttachmentSchema>;

export const TicketReplySchema = z.object({
  _id: z.string(),
  /**
   * The author as this viewer sees it: the author's email, or `<Company> Support` for a reply of
   * the platform's Admin seen by anyone but an Admin (docs/product.md, Tickets).
   */
  author: z.string(),
  /** The author is shown as the brand's support, not by its own address. */
  support: z.boolean(),
  message: z.string(),
  createdAt: z.string(),
});
export type TicketReply = z.infer<typeof TicketReplySchema>;

/** A ticket as lists show it. */
export const TicketSchema = z.object({
  _id: z.string(),
  /** The ticket's number, shown as `#`. */
  number: z.number(),
  subject: z.string(),
  description: z.string(),
  status: TicketStatusSchema,
  issueType: TicketIssueTypeSchema,
  userEmail: z.string(),
  userName: z.string(),
  /** 'Admin' or the assigned reseller's email. */
  assignedTo: z.string(),
  relatedCampaign: z.string().nullable(),
  relatedUser: z.string().nullable(),
  relatedTransaction: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Ticket = z.infer<typeof TicketSchema>;

/**
 * One page of the conversation, oldest first. `earlierRepliesCursor`: pass as `before` to
 * GET /api/tickets/{id}/replies for the page before this one; null when none is older.
 */
export const TicketRepliesPageSchema = z.object({
  replies: z.array(TicketReplySchema),
  earlierRepliesCursor: z.string().nullable(),
});
export type TicketRepliesPage = z.infer<typeof TicketRepliesPageSchema>;

/**
 * GET /api/tickets/{id} and the replies of every change: the files and the newest
 * TICKET_REPLIES_PAGE replies (oldest first), with the cursor of the earlier ones.
 */
export const TicketDetailSchema = TicketSchema.extend({
  attachments: z.array(TicketAttachmentSchema),
}).extend(TicketRepliesPageSchema.shape);
export type TicketDetail = z.infer<typeof TicketDetailSchema>;

/**
 * GET /api/tickets, answered like GET /api/campaigns: keyset pages (newest ticket number first) so
 * a long-lived support desk never loads every ticket.
 */
export const TicketListSchema = z.object({
  tickets: z.array(TicketSchema),
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type TicketList = z.infer<typeof TicketListSchema>;

export const TicketReplyBodySchema = z.object({ message: z.string(), ticket: TicketDetailSchema });
export type TicketActionReply = z.infer<typeof TicketReplyBodySchema>;

/** Path of an attachment's download (authenticated; only those who see the ticket). */
export const ticketAttachmentPath = (ticketId: string, attachmentId: string) =>
  `/api/tickets/${encodeURIComponent(ticketId)}/attachments/${encodeURIComponent(attachmentId)}`;

/**
 * A ticket attachment's type by content (images, pdf, csv, xlsx, txt: docs/product.md, Tickets):
 * a signature first; text has none, so bytes that read as plain text are csv when the name says
 * so, else txt. The name never admits a file, it only names a text one. `head` is the file's
 * start (`cut`) or all of it.
 */
export function ticketFileType(head: Uint8Array, name: string, cut: boolean): FileType | null {
  const t = detectFileType(head);
  if (t) return t.family === 'image' || t.family === 'pdf' || t.ext === 'xlsx' ? t : null;
  if (head.length === 0 || !isPlainText(head, cut)) return null;
  const csv = /\.csv$/i.test(name);
  return {
    ext: csv ? 'csv' : 'txt',
    mime: csv ? 'text/csv' : 'text/plain',
    family: 'text',
  };
}
