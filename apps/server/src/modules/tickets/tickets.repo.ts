import { sql, type Insertable, type SqlBool } from 'kysely';
import type { Role, TicketIssueType, TicketListFilters, TicketStatus } from '@herald/contract';
import { OPEN_TICKET_STATUSES } from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';
import type { TicketAttachmentsTable, TicketsTable } from '../../db/schema.js';
import type { Actor } from '../../policies/scope.js';

/** Support tickets: queries only, each taking the connection or transaction to run on. */

/** A ticket with its opener's and assignee's names, as every read needs them. */
export interface TicketView {
  id: string;
  number: string;
  user_id: string;
  owner_email: string;
  owner_name: string;
  owner_ancestors: string[];
  subject: string;
  description: string;
  status: TicketStatus;
  issue_type: TicketIssueType;
  assigned_to: string | null;
  assignee_email: string | null;
  related_campaign: string | null;
  related_user: string | null;
  related_transaction: string | null;
  created_at: Date;
  updated_at: Date;
}

function views(db: DbOrTx) {
  return db
    .selectFrom('tickets as t')
    .innerJoin('users as o', 'o.id', 't.user_id')
    .leftJoin('users as a', 'a.id', 't.assigned_to')
    .select([
      't.id',
      't.number',
      't.user_id',
      'o.email as owner_email',
      'o.name as owner_name',
      'o.ancestors as owner_ancestors',
      't.subject',
      't.description',
      't.status',
      't.issue_type',
      't.assigned_to',
      'a.email as assignee_email',
      't.related_campaign',
      't.related_user',
      't.related_transaction',
      't.created_at',
      't.updated_at',
    ]);
}

/**
 * Tickets the actor sees (docs/product.md, Tickets): Admin all; a Reseller or Sub-Reseller its
 * own, its subtree's and those assigned to it; a User its own.
 */
function inScope(actor: Actor) {
  return sql<SqlBool>`${
    actor.role === 'Admin'
      ? sql`true`
      : actor.role === 'User'
        ? sql`t.user_id = ${actor.id}::uuid`
        : sql`(t.user_id = ${actor.id}::uuid OR o.ancestors @> ARRAY[${actor.id}]::uuid[]
              OR t.assigned_to = ${actor.id}::uuid)`
  }`;
}

/** One page, newest first by number; one row more than `limit` says another page follows. */
export function listTickets(db: DbOrTx, actor: Actor, q: TicketListFilters) {
  let query = views(db).where(inScope(actor));
  if (q.cursor) query = query.where('t.number', '<', q.cursor as never);
  return query
    .orderBy('t.number', 'desc')
    .limit(q.limit + 1)
    .execute() as Promise<TicketView[]>;
}

export function getTicket(db: DbOrTx, id: string): Promise<TicketView | undefined> {
  return views(db).where('t.id', '=', id).executeTakeFirst() as Promise<TicketView | undefined>;
}

/** Row-locks the ticket for the rest of the transaction, so changes to it run one at a time. */
export async function lockTicket(tx: Tx, id: string): Promise<TicketView | undefined> {
  const locked = await tx
    .selectFrom('tickets')
    .select('id')
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return locked ? getTicket(tx, id) : undefined;
}

export async function insertTicket(
  tx: Tx,
  values: Insertable<TicketsTable>,
): Promise<{ id: string }> {
  return tx.insertInto('tickets').values(values).returning('id').executeTakeFirstOrThrow();
}

export async function insertAttachments(
  tx: Tx,
  rows: Insertable<TicketAttachmentsTable>[],
): Promise<void> {
  if (rows.length > 0) await tx.insertInto('ticket_attachments').values(rows).execute();
}

/**
 * Holds the user's attachment-quota lock until the transaction ends: the check of the bytes
 * used and the insert of the new rows run one request at a time per user, so parallel uploads
 * cannot each pass the check on the same total. A single bigint key, apart from the two-int keys
 * the dispatcher and the backups use.
 */
export async function lockAttachmentQuota(tx: Tx, userId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`ticket-attachment-quota:${userId}`}, 0))`.execute(
    tx,
  );
}

/** Bytes of attachments on tickets `userId` opened since `since`. */
export async function attachmentBytesSince(
  db: DbOrTx,
  userId: string,
  since: Date,
): Promise<number> {
  const row = await db
    .selectFrom('ticket_attachments as a')
    .innerJoin('tickets as t', 't.id', 'a.ticket_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('a.size'), eb.val('0')).as('bytes'))
    .where('t.user_id', '=', userId)
    .where('t.created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

export async function countReplies(tx: Tx, ticketId: string): Promise<number> {
  const row = await tx
    .selectFrom('ticket_replies')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('ticket_id', '=', ticketId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertReply(
  tx: Tx,
  row: { ticketId: string; userId: string; email: string; name: string; message: string },
): Promise<void> {
  await tx
    .insertInto('ticket_replies')
    .values({
      ticket_id: row.ticketId,
      user_id: row.userId,
      user_email: row.email,
      user_name: row.name,
      message: row.message,
    })
    .execute();
}

export async function updateTicket(
  tx: Tx,
  id: string,
  change: { status?: TicketStatus; assigned_to?: string | null },
): Promise<void> {
  await tx
    .updateTable('tickets')
    .set({ ...change, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/**
 * Hands the tickets assigned to `userId` back to the Admins, in the caller's transaction: an
 * assignment grants access only while the assignee is a Reseller (docs/product.md, Tickets), so
 * the role change that ends that calls this. Answers how many tickets were handed back.
 */
export async function unassignTicketsOf(tx: Tx, userId: string): Promise<number> {
  const res = await tx
    .updateTable('tickets')
    .set({ assigned_to: null, updated_at: sql<Date>`now()` })
    .where('assigned_to', '=', userId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export function attachmentsOf(db: DbOrTx, ticketId: string) {
  return db
    .selectFrom('ticket_attachments')
    .select(['id', 'original_name', 'mime', 'size', 'stored_name'])
    .where('ticket_id', '=', ticketId)
    .orderBy('position')
    .execute();
}

export function attachmentOf(db: DbOrTx, ticketId: string, attachmentId: string) {
  return db
    .selectFrom('ticket_attachments')
    .select(['id', 'original_name', 'mime', 'size', 'stored_name'])
    .where('ticket_id', '=', ticketId)
    .where('id', '=', attachmentId)
    .executeTakeFirst();
}

/**
 * Everyone who can see the ticket as it stands (docs/product.md, Tickets), the actor excluded:
 * every Admin, the opener, the opener's creators up the chain and the assignee; Active users
 * only (a blocked account cannot read them).
 */
export async function audienceOf(
  tx: Tx,
  ticketId: string,
  actorId: string,
): Promise<{ id: string; role: Role }[]> {
  const { rows } = await sql<{ id: string; role: Role }>`
    SELECT u.id, u.role FROM tickets t
      JOIN users o ON o.id = t.user_id
      JOIN users u ON u.role = 'Admin' OR u.id = t.user_id OR u.id = ANY (o.ancestors)
        OR u.id = t.assigned_to
     WHERE t.id = ${ticketId}::uuid AND u.status = 'Active' AND u.id <> ${actorId}::uuid`.execute(
    tx,
  );
  return rows;
}

/**
 * An Active Reseller by email: the only users besides the Admins a ticket is assigned to. Share
 * locked until the transaction ends, so its role holds while the assignment is written.
 */
export function findActiveReseller(tx: Tx, email: string) {
  return tx
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', '=', email)
    .where('role', '=', 'Reseller')
    .where('status', '=', 'Active')
    .forShare()
    .executeTakeFirst();
}

/**
 * Whether the actor's transaction history holds ledger entry `id` ("History scope":
 * docs/product.md, Credits and the ledger): Admin all; Reseller/Sub-Reseller through its viewer rows; User its own.
 */
export async function canSeeTransaction(db: DbOrTx, actor: Actor, id: string): Promise<boolean> {
  const row =
    actor.role === 'Reseller' || actor.role === 'Sub-Reseller'
      ? await db
          .selectFrom('credit_transaction_viewers')
          .select('transaction_id')
          .where('viewer_id', '=', actor.id)
          .where('transaction_id', '=', id)
          .executeTakeFirst()
      : await db
          .selectFrom('credit_transactions')
          .select('id')
          .where('id', '=', id)
          .$if(actor.role === 'User', (q) => q.where('to_user_id', '=', actor.id))
          .executeTakeFirst();
  return row !== undefined;
}

/** Open tickets (not Resolved or Closed) the actor sees: the dashboards' figure. */
export async function countOpen(db: DbOrTx, actor: Actor): Promise<number> {
  const row = await db
    .selectFrom('tickets as t')
    .innerJoin('users as o', 'o.id', 't.user_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('t.status', 'in', OPEN_TICKET_STATUSES)
    .where(inScope(actor))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Of these stored names, the ones an attachment row names (the orphan sweep keeps those). */
export async function knownAttachmentNames(
  db: DbOrTx,
  names: readonly string[],
): Promise<string[]> {
  const known = await db
    .selectFrom('ticket_attachments')
    .select('stored_name')
    .where('stored_name', 'in', [...names])
    .execute();
  return known.map((r) => r.stored_name);
}
