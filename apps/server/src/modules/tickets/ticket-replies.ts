import {
  TICKET_REPLIES_PAGE,
  type TicketRepliesPage,
  type TicketReplyCursor,
} from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Actor } from '../../policies/scope.js';
import { servingBrandNames } from '../branding/branding.service.js';
import { presentReplies } from './tickets.presenter.js';
import { repliesPage } from './ticket-replies.repo.js';

/** The conversation's pages, for the ticket detail and for GET /api/tickets/{id}/replies. */

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
  const rows = await repliesPage(db, ticketId, before, TICKET_REPLIES_PAGE);
  const hidesAdmin =
    viewer.role !== 'Admin' &&
    rows.slice(0, TICKET_REPLIES_PAGE).some((r) => r.author_role === 'Admin');
  const supportBrand = hidesAdmin
    ? (await servingBrandNames(db, [viewer.id])).get(viewer.id)
    : undefined;
  return presentReplies(rows, TICKET_REPLIES_PAGE, supportBrand);
}
