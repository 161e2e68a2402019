import { sql } from 'kysely';
import type { Tx } from '../../db/database.js';

/**
 * The data cleanup's delete of the tickets of users being deleted (their tickets go with them:
 * docs/product.md, Backup and storage), in the caller's transaction. Replies and attachment rows
 * follow by cascade; the attachments' stored names are answered so the caller removes the files
 * after the commit (removeTicketFiles in ticket-files.ts).
 */
export interface DeletedTickets {
  count: number;
  storedNames: string[];
}

export async function deleteTicketsOf(tx: Tx, userIds: readonly string[]): Promise<DeletedTickets> {
  if (userIds.length === 0) return { count: 0, storedNames: [] };
  const files = await sql<{ stored_name: string }>`
    SELECT a.stored_name FROM ticket_attachments a
    JOIN tickets t ON t.id = a.ticket_id
    WHERE t.user_id = ANY (${[...userIds]}::uuid[])`.execute(tx);
  const gone = await sql`DELETE FROM tickets WHERE user_id = ANY (${[...userIds]}::uuid[])`.execute(
    tx,
  );
  return {
    count: Number(gone.numAffectedRows ?? 0),
    storedNames: files.rows.map((r) => r.stored_name),
  };
}
