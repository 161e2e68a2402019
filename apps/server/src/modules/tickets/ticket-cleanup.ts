import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Tx } from '../../db/database.js';
import { ticketsDir } from './ticket-files.js';

/**
 * The data cleanup's delete of the tickets of users being deleted (spec 5: their tickets go
 * with them), in the caller's transaction. Replies and attachment rows follow by cascade; the
 * attachments' stored names are answered so the caller removes the files after the commit.
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

/** After the commit: deletes the attachment files; a missing file is fine. */
export async function removeTicketFiles(
  uploadsDir: string,
  storedNames: readonly string[],
): Promise<void> {
  const dir = ticketsDir(uploadsDir);
  for (const name of storedNames) {
    if (name.includes('/') || name.includes('\\') || name.startsWith('.')) continue;
    await fs.rm(path.join(dir, name), { force: true });
  }
}
