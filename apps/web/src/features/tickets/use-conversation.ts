import { useMemo, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { TicketDetail, TicketReply } from '@herald/contract';
import { getEarlierReplies } from '../../api/tickets/get-ticket-replies';
import { mergeReplies } from './tickets-data';

/**
 * The replies the conversation shows: the detail's newest page (replaced after every change, so a
 * new reply shows at once) and the earlier pages loaded on request. Replies a later detail no
 * longer carries stay shown, so loading earlier pages never leaves a gap.
 */
export function useConversation(ticket: TicketDetail) {
  const [kept, setKept] = useState<readonly TicketReply[]>([]);
  const [detailReplies, setDetailReplies] = useState(ticket.replies);
  // Undefined until a page was loaded: the detail's own cursor is the one to follow.
  const [cursor, setCursor] = useState<string | null | undefined>(undefined);
  if (detailReplies !== ticket.replies) {
    // A new detail (after a change): keep what the previous one showed.
    setKept((k) => mergeReplies(k, detailReplies));
    setDetailReplies(ticket.replies);
  }
  const earlier = useMutation({
    mutationFn: (before: string) => getEarlierReplies(ticket._id, before),
  });
  const next = cursor === undefined ? ticket.earlierRepliesCursor : cursor;
  const replies = useMemo(() => mergeReplies(kept, ticket.replies), [kept, ticket.replies]);

  /** Loads the page before the oldest shown; answers the id of its first reply. */
  const loadEarlier = async (): Promise<string | undefined> => {
    if (!next) return undefined;
    const page = await earlier.mutateAsync(next);
    setKept((k) => mergeReplies(page.replies, k));
    setCursor(page.earlierRepliesCursor);
    return page.replies[0]?._id;
  };

  return { replies, hasEarlier: Boolean(next), loadEarlier, earlier };
}
