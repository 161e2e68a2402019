import type { TicketRepliesPage } from '@herald/contract';
import { api } from '../../lib/api-client';

/**
 * GET /api/tickets/{id}/replies: the page of replies just older than `before` (the detail's or
 * the previous page's `earlierRepliesCursor`), oldest first.
 */
export function getEarlierReplies(
  id: string,
  before: string,
  signal?: AbortSignal,
): Promise<TicketRepliesPage> {
  return api<TicketRepliesPage>(`/tickets/${encodeURIComponent(id)}/replies`, {
    query: { before },
    signal,
  });
}
