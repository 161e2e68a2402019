import { sql } from 'kysely';
import type { DbOrTx } from '../db/database.js';

/** The `mail_outbox` table's statements, for MailOutbox (mail-outbox.ts). */

export async function insertMail(
  db: DbOrTx,
  mail: { recipient: string; subject: string; body: string; from_name: string | null },
): Promise<string> {
  const row = await db
    .insertInto('mail_outbox')
    .values(mail)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findMail(db: DbOrTx, id: string) {
  return db
    .selectFrom('mail_outbox')
    .select(['recipient', 'subject', 'body', 'from_name', 'sent_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Counts a failed attempt and keeps its error. */
export async function recordFailure(db: DbOrTx, id: string, error: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ attempts: sql`attempts + 1`, last_error: error })
    .where('id', '=', id)
    .execute();
}

/** Marks the mail sent and drops its body. */
export async function markSent(db: DbOrTx, id: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ sent_at: sql`now()`, body: null, attempts: sql`attempts + 1`, last_error: null })
    .where('id', '=', id)
    .execute();
}

/** Unsent mail whose job (key `mail:<id>`) used up its attempts or is gone. */
export async function findStalled(db: DbOrTx): Promise<string[]> {
  const stalled = await sql<{ id: string }>`
    SELECT m.id FROM mail_outbox m
    WHERE m.sent_at IS NULL
      AND NOT EXISTS (
        SELECT 1 FROM graphile_worker.jobs j
        WHERE j.key = 'mail:' || m.id
          AND (j.attempts < j.max_attempts OR j.locked_at IS NOT NULL))`.execute(db);
  return stalled.rows.map((r) => r.id);
}

/** Deletes mail sent more than `keepDays` ago; answers how many. */
export async function deleteSentBefore(db: DbOrTx, keepDays: number): Promise<number> {
  const result = await db
    .deleteFrom('mail_outbox')
    .where('sent_at', '<', sql<Date>`now() - make_interval(days => ${keepDays})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
