import {
  FILE_TYPE_HEAD_BYTES,
  TICKET_ADMIN_ASSIGNEE,
  TICKET_ATTACHMENT_MAX_BYTES,
  TICKET_MAX_ATTACHMENTS,
  ruleMessages,
  server as msg,
  ticketFileType,
  type Campaign,
  type CreditTransaction,
  type Role,
  type Ticket,
  type TicketIssueType,
  type TicketReply,
  type User,
} from '@herald/contract';
import type { SelectOption } from '../../components/form-field';
import { formatDate } from '../../lib/format';

/** Pure rules of the Support Tickets screen, kept apart from the components. */

/** Which related record the create form asks for, by issue type (Other asks for none). */
export const RELATED_FIELD: Partial<
  Record<TicketIssueType, 'relatedCampaign' | 'relatedUser' | 'relatedTransaction'>
> = {
  Campaign: 'relatedCampaign',
  User: 'relatedUser',
  'Credits/Debits': 'relatedTransaction',
};

export function campaignOptions(campaigns: readonly Campaign[]): SelectOption[] {
  return campaigns.map((c) => ({
    value: c._id,
    label: `${c.creditType}: ${c.message.slice(0, 40)} (${formatDate(c.createdAt)})`,
  }));
}

export function userOptions(users: readonly User[]): SelectOption[] {
  return users.map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }));
}

export function transactionOptions(entries: readonly CreditTransaction[]): SelectOption[] {
  return entries.map((e) => ({
    value: e.id,
    label: `#${e.id} ${e.type} ${e.count} ${e.creditType} (${e.to})`,
  }));
}

/**
 * Assign to: Admin first, then every Active Reseller (a ticket goes to the Admin or a reseller).
 */
export function assigneeOptions(users: readonly User[]): SelectOption[] {
  const resellers = users.filter((u) => u.role === 'Reseller' && u.status === 'Active');
  return [
    { value: TICKET_ADMIN_ASSIGNEE, label: TICKET_ADMIN_ASSIGNEE },
    ...resellers.map((u) => ({ value: u.email, label: `${u.name} (${u.email})` })),
  ];
}

/** Only the Reseller the ticket is assigned to may escalate it. */
export function canEscalate(me: { email: string; role: Role }, ticket: Ticket): boolean {
  return me.role === 'Reseller' && ticket.assignedTo === me.email;
}

export interface CreateTicketValues {
  subject: string;
  description: string;
  issueType: TicketIssueType;
  related: string;
}

export const EMPTY_TICKET: CreateTicketValues = {
  subject: '',
  description: '',
  issueType: 'Other',
  related: '',
};

/** The form's errors by field; empty when it may be sent. */
export function ticketFormErrors(
  v: CreateTicketValues,
): Partial<Record<'subject' | 'description', string>> {
  const errors: Partial<Record<'subject' | 'description', string>> = {};
  if (!v.subject.trim()) errors.subject = msg.ticketSubjectRequired;
  if (!v.description.trim()) errors.description = msg.ticketDescriptionRequired;
  return errors;
}

/** The multipart text fields: trimmed, the related id under the issue type's field name. */
export function ticketFields(v: CreateTicketValues): Record<string, string> {
  const fields: Record<string, string> = {
    subject: v.subject.trim(),
    description: v.description.trim(),
    issueType: v.issueType,
  };
  const related = RELATED_FIELD[v.issueType];
  if (related && v.related) fields[related] = v.related;
  return fields;
}

/**
 * The chosen files' problem, or null: at most 5, each at most 5 MB and, by its first bytes,
 * an image, pdf, csv, xlsx or text (the server checks again, the whole file).
 */
export async function attachmentsProblem(files: readonly File[]): Promise<string | null> {
  if (files.length > TICKET_MAX_ATTACHMENTS) return msg.ticketTooManyAttachments;
  for (const file of files) {
    if (file.size > TICKET_ATTACHMENT_MAX_BYTES) {
      return ruleMessages.fileTooLarge(TICKET_ATTACHMENT_MAX_BYTES / (1024 * 1024));
    }
    const headSize = Math.max(FILE_TYPE_HEAD_BYTES, 64 * 1024);
    const head = new Uint8Array(await file.slice(0, headSize).arrayBuffer());
    if (!ticketFileType(head, file.name, file.size > head.length)) return msg.ticketAttachmentType;
  }
  return null;
}

/**
 * The conversation from pages seen at different times: every reply once (the first copy kept),
 * in time order; replies of the same instant keep the order the server gave them.
 */
export function mergeReplies(
  ...pages: readonly (readonly TicketReply[])[]
): readonly TicketReply[] {
  const seen = new Set<string>();
  const all: TicketReply[] = [];
  for (const r of pages.flat()) {
    if (seen.has(r._id)) continue;
    seen.add(r._id);
    all.push(r);
  }
  return all.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}
