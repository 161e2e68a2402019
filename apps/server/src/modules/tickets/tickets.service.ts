import {
  CreateTicketFieldsSchema,
  TICKET_ADMIN_ASSIGNEE,
  TICKET_ESCALATED,
  TICKET_REPLIES_MAX,
  server as msg,
  supportAuthor,
  type TicketDetail,
  type TicketList,
  type TicketListFilters,
  type TicketRepliesPage,
  type TicketReplyCursor,
  type TicketStatus,
} from '@herald/contract';
import type { AppContext } from '../../context.js';
import type { DbOrTx, Tx } from '../../db/database.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import { canSee, type Actor } from '../../policies/scope.js';
import { servingBrandNames } from '../branding/branding.service.js';
import { visibleCampaign } from '../campaigns/index.js';
import {
  notifyRole,
  notifyUsers,
  type NotificationEvent,
} from '../notifications/notifications.service.js';
import { getProfile } from '../users/users.service.js';
import { commitAttachments } from './ticket-files.js';
import type { TicketUpload } from './tickets.input.js';
import { checkAttachmentQuota } from './ticket-quota.js';
import { repliesFor } from './ticket-replies.js';
import { emitWebhookEvent } from '../webhooks/index.js';
import { presentDetail, presentTicket } from './tickets.presenter.js';
import * as repo from './tickets.repo.js';

/**
 * Support tickets (docs/product.md, Tickets): who sees a ticket, who may change it,
 * and the notifications each change writes in its own transaction.
 */

/** The link a ticket notification carries: the tickets screen, opening that ticket. */
export const ticketLink = (id: string) => `/tickets?ticket=${id}`;

/** The opener, its creators up the chain, the assignee and every Admin see a ticket. */
export function canSeeTicket(actor: Actor, t: repo.TicketView): boolean {
  return (
    canSee(actor, { id: t.user_id, ancestors: t.owner_ancestors }) || t.assigned_to === actor.id
  );
}

/** The ticket when the actor sees it; unknown and out-of-scope ids alike answer 404. */
async function visibleTicket(db: DbOrTx, actor: Actor, id: string): Promise<repo.TicketView> {
  const row = await repo.getTicket(db, id);
  if (!row || !canSeeTicket(actor, row)) throw notFound(msg.ticketNotFound);
  return row;
}

async function lockVisibleTicket(tx: Tx, actor: Actor, id: string): Promise<repo.TicketView> {
  const row = await repo.lockTicket(tx, id);
  if (!row || !canSeeTicket(actor, row)) throw notFound(msg.ticketNotFound);
  return row;
}

/** The ticket as this viewer sees it, with the newest page of its conversation. */
async function detailOf(db: DbOrTx, viewer: Actor, row: repo.TicketView): Promise<TicketDetail> {
  const [replies, attachments] = await Promise.all([
    repliesFor(db, viewer, row.id),
    repo.attachmentsOf(db, row.id),
  ]);
  return presentDetail(row, replies, attachments);
}

/** Re-reads the ticket after a change, in the same transaction. */
async function reread(tx: Tx, viewer: Actor, id: string): Promise<TicketDetail> {
  const row = await repo.getTicket(tx, id);
  if (!row) throw notFound(msg.ticketNotFound);
  return detailOf(tx, viewer, row);
}

/** Tells everyone who now sees the ticket, except the actor, about one change: once each. */
async function tellAudience(
  tx: Tx,
  ticketId: string,
  actor: Actor,
  eventType: NotificationEvent,
  message: string,
): Promise<void> {
  const audience = await repo.audienceOf(tx, ticketId, actor.id);
  const ids = audience.map((u) => u.id);
  await notifyUsers(tx, ids, { eventType, message, link: ticketLink(ticketId) });
}

/**
 * Tells the audience of a reply. A reply of the platform's Admin reads, to everyone but the
 * Admins, as the support of the brand that serves each of them, as the conversation shows it.
 */
async function tellReply(tx: Tx, t: repo.TicketView, actor: Actor & { email: string }) {
  const audience = await repo.audienceOf(tx, t.id, actor.id);
  const served = actor.role === 'Admin' ? audience.filter((u) => u.role !== 'Admin') : [];
  const brands = await servingBrandNames(
    tx,
    served.map((u) => u.id),
  );
  const byAuthor = new Map<string, string[]>();
  for (const { id } of audience) {
    const brand = brands.get(id);
    const author = brand === undefined ? actor.email : supportAuthor(brand);
    byAuthor.set(author, [...(byAuthor.get(author) ?? []), id]);
  }
  for (const [author, ids] of byAuthor) {
    await notifyUsers(tx, ids, {
      eventType: 'ticket_reply',
      message: msg.notifyTicketReply(Number(t.number), author),
      link: ticketLink(t.id),
    });
  }
}

/** Tells the ticket's owner's webhook endpoints (docs/api.md, Webhooks), in the change's transaction. */
function tellWebhooks(
  tx: Tx,
  t: repo.TicketView,
  status: TicketStatus,
  change: 'status' | 'reply' | 'assigned' | 'escalated',
): Promise<void> {
  return emitWebhookEvent(tx, t.user_id, 'ticket.updated', {
    ticketId: t.id,
    number: Number(t.number),
    subject: t.subject,
    status,
    change,
  });
}

/** GET /api/tickets: the caller's scope, newest first, a page at a time. */
export async function listTickets(
  ctx: AppContext,
  actor: Actor,
  q: TicketListFilters,
): Promise<TicketList> {
  const rows = await repo.listTickets(ctx.db, actor, q);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    tickets: page.map(presentTicket),
    nextCursor: rows.length > q.limit && last ? last.number : null,
  };
}

export async function getTicketDetail(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<TicketDetail> {
  return detailOf(ctx.db, actor, await visibleTicket(ctx.db, actor, id));
}

/** GET /api/tickets/{id}/replies: an earlier page, to whoever sees the ticket (404 otherwise). */
export async function getEarlierReplies(
  ctx: AppContext,
  actor: Actor,
  id: string,
  before: TicketReplyCursor,
): Promise<TicketRepliesPage> {
  const ticket = await visibleTicket(ctx.db, actor, id);
  return repliesFor(ctx.db, actor, ticket.id, before);
}

/** The related campaign, user and ledger entry must be ones the opener sees (404 otherwise). */
async function checkRelated(
  ctx: AppContext,
  actor: Actor,
  f: { relatedCampaign?: string; relatedUser?: string; relatedTransaction?: string },
): Promise<void> {
  if (f.relatedCampaign) await visibleCampaign(ctx.db, actor, f.relatedCampaign);
  if (f.relatedUser) await getProfile(ctx, actor, f.relatedUser);
  if (
    f.relatedTransaction &&
    !(await repo.canSeeTransaction(ctx.db, actor, f.relatedTransaction))
  ) {
    throw notFound(msg.ticketRelatedNotFound('transaction'));
  }
}

/**
 * POST /api/tickets: the ticket and its attachments' rows in one transaction, after the files
 * were checked and put in the store under their final names. The caller deletes the files
 * (staged or stored) when this throws.
 */
export async function createTicket(
  ctx: AppContext,
  actor: AuthUser,
  upload: TicketUpload,
): Promise<TicketDetail> {
  const fields = CreateTicketFieldsSchema.parse(upload.fields);
  await checkRelated(ctx, actor, fields);
  const bytes = upload.files.reduce((sum, f) => sum + f.size, 0);
  if (bytes > 0) await checkAttachmentQuota(ctx.db, actor.id, bytes);
  const files = await commitAttachments(ctx.files, upload.files);
  return ctx.db.transaction().execute(async (tx) => {
    if (bytes > 0) {
      await repo.lockAttachmentQuota(tx, actor.id);
      await checkAttachmentQuota(tx, actor.id, bytes);
    }
    const { id } = await repo.insertTicket(tx, {
      user_id: actor.id,
      subject: fields.subject,
      description: fields.description,
      issue_type: fields.issueType,
      related_campaign: fields.relatedCampaign ?? null,
      related_user: fields.relatedUser ?? null,
      related_transaction: fields.relatedTransaction ?? null,
    });
    await repo.insertAttachments(
      tx,
      files.map((f) => ({ ...f, ticket_id: id })),
    );
    const ticket = await reread(tx, actor, id);
    // New tickets go to the Admins (docs/product.md, Tickets): they hear of each one.
    await notifyRole(
      tx,
      'Admin',
      {
        eventType: 'ticket_created',
        message: msg.notifyTicketCreated(ticket.number, actor.email),
        link: ticketLink(id),
      },
      actor.id,
    );
    return ticket;
  });
}

/** PUT /api/tickets/{id}/reply: anyone who sees the ticket. */
export function replyToTicket(
  ctx: AppContext,
  actor: AuthUser,
  id: string,
  message: string,
): Promise<TicketDetail> {
  return ctx.db.transaction().execute(async (tx) => {
    const t = await lockVisibleTicket(tx, actor, id);
    // Counted under the ticket's lock, so two replies at once cannot both take the last place.
    if ((await repo.countReplies(tx, id)) >= TICKET_REPLIES_MAX) {
      throw conflict(msg.ticketRepliesFull(TICKET_REPLIES_MAX));
    }
    await repo.insertReply(tx, {
      ticketId: id,
      userId: actor.id,
      email: actor.email,
      name: actor.name,
      message,
    });
    await repo.updateTicket(tx, id, {});
    await tellReply(tx, t, actor);
    await tellWebhooks(tx, t, t.status, 'reply');
    return reread(tx, actor, id);
  });
}

/** PUT /api/tickets/{id}/status (Admin): any status; setting the current one changes nothing. */
export function setTicketStatus(
  ctx: AppContext,
  actor: Actor,
  id: string,
  status: TicketStatus,
): Promise<TicketDetail> {
  return ctx.db.transaction().execute(async (tx) => {
    const t = await lockVisibleTicket(tx, actor, id);
    if (t.status !== status) {
      await repo.updateTicket(tx, id, { status });
      await tellAudience(
        tx,
        id,
        actor,
        'ticket_status',
        msg.notifyTicketStatus(Number(t.number), status),
      );
      await tellWebhooks(tx, t, status, 'status');
    }
    return reread(tx, actor, id);
  });
}

/** PUT /api/tickets/{id}/assign (Admin): to 'Admin' or an Active Reseller, by email. */
export function assignTicket(
  ctx: AppContext,
  actor: Actor,
  id: string,
  assignee: string,
): Promise<TicketDetail> {
  return ctx.db.transaction().execute(async (tx) => {
    let to: { id: string | null; label: string } = { id: null, label: TICKET_ADMIN_ASSIGNEE };
    if (assignee !== TICKET_ADMIN_ASSIGNEE) {
      // Locked (user before ticket, the order of a role change) so the role cannot change
      // before this commits: the role change hands the user's tickets back (docs/product.md, Tickets).
      const reseller = await repo.findActiveReseller(tx, assignee);
      if (!reseller) throw badRequest(msg.ticketAssigneeInvalid);
      to = { id: reseller.id, label: reseller.email };
    }
    const t = await lockVisibleTicket(tx, actor, id);
    if (t.assigned_to !== to.id) {
      await repo.updateTicket(tx, id, { assigned_to: to.id });
      await tellAudience(
        tx,
        id,
        actor,
        'ticket_assigned',
        msg.notifyTicketAssigned(Number(t.number), to.label),
      );
      await tellWebhooks(tx, t, t.status, 'assigned');
    }
    return reread(tx, actor, id);
  });
}

/**
 * PUT /api/tickets/{id}/escalate: only the Reseller the ticket is assigned to; it becomes
 * Escalated and goes back to the Admins (docs/product.md, Tickets).
 */
export function escalateTicket(
  ctx: AppContext,
  actor: AuthUser,
  id: string,
): Promise<TicketDetail> {
  return ctx.db.transaction().execute(async (tx) => {
    const t = await lockVisibleTicket(tx, actor, id);
    if (actor.role !== 'Reseller' || t.assigned_to !== actor.id) {
      throw forbidden(msg.ticketEscalateNotAssigned);
    }
    await repo.updateTicket(tx, id, { status: TICKET_ESCALATED, assigned_to: null });
    await tellAudience(
      tx,
      id,
      actor,
      'ticket_escalated',
      msg.notifyTicketEscalated(Number(t.number), actor.email),
    );
    await tellWebhooks(tx, t, TICKET_ESCALATED, 'escalated');
    return reread(tx, actor, id);
  });
}

/** The dashboards' "Open Support Tickets" / "My Open Tickets": open tickets the actor sees. */
export function countOpenTickets(ctx: AppContext, actor: Actor): Promise<number> {
  return repo.countOpen(ctx.db, actor);
}

/** An attachment of a ticket the actor sees, for download; 404 otherwise. */
export async function attachmentForDownload(
  ctx: AppContext,
  actor: Actor,
  ticketId: string,
  attachmentId: string,
) {
  await visibleTicket(ctx.db, actor, ticketId);
  const file = await repo.attachmentOf(ctx.db, ticketId, attachmentId);
  if (!file) throw notFound(msg.notFound);
  return file;
}
