import { sql } from 'kysely';
import type { TicketReplyCursor } from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';

/** The conversation's pages: the replies of one ticket, newest first, by a keyset cursor. */

/**
 * Up to `limit` + 1 replies of the ticket, newest first, older than `before` when given: one row
 * more than `limit` says an earlier page follows. Each row carries its author's role (Admins are
 * never deleted) and its created_at in microseconds, the cursor's exact position (the index on
 * (ticket_id, created_at, id) serves the whole page).
 */
export function repliesPage(
  db: DbOrTx,
  ticketId: string,
  before: TicketReplyCursor | undefined,
  limit: number,
) {
  return db
    .selectFrom('ticket_replies as r')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.user_email', 'r.message', 'r.created_at', 'u.role as author_role'])
    .select(
      sql<string>`(extract(epoch from r.created_at) * 1000000)::bigint::text`.as('cursor_micros'),
    )
    .where('r.ticket_id', '=', ticketId)
    .$if(before !== undefined, (q) =>
      q.where(
        sql<boolean>`(r.created_at, r.id) < (timestamptz 'epoch' + ${before!.micros}::bigint * interval '1 microsecond', ${before!.id}::uuid)`,
      ),
    )
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit + 1)
    .execute();
}
