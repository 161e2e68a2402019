import { sql } from 'kysely';
import type { DbOrTx } from '../../../db/database.js';

/** Senders with today's usage (UTC day), as the Delivery Settings screen lists them. */

export interface SenderRow {
  id: string;
  name: string;
  provider: string;
  rate_per_second: number;
  daily_limit: number | null;
  is_default: boolean;
  sent_today: number;
}

function sendersWithUsage(db: DbOrTx) {
  return db
    .selectFrom('senders')
    .leftJoin('sender_daily_usage as u', (join) =>
      join
        .onRef('u.sender_id', '=', 'senders.id')
        // The daily limit counts UTC days, so "today" is today's UTC date.
        .on('u.day', '=', sql<Date>`(now() AT TIME ZONE 'UTC')::date`),
    )
    .select([
      'senders.id',
      'senders.name',
      'senders.provider',
      'senders.rate_per_second',
      'senders.daily_limit',
      'senders.is_default',
      sql<number>`coalesce(u.sent, 0)`.as('sent_today'),
    ]);
}

export function listSenders(db: DbOrTx): Promise<SenderRow[]> {
  return sendersWithUsage(db)
    .orderBy('senders.is_default', 'desc')
    .orderBy('senders.name')
    .execute();
}

export function getSender(db: DbOrTx, id: string): Promise<SenderRow | undefined> {
  return sendersWithUsage(db).where('senders.id', '=', id).executeTakeFirst();
}

/** Sets the limits; false when no such sender. The bucket refills at the new rate from now on. */
export async function updateSenderLimits(
  db: DbOrTx,
  id: string,
  ratePerSecond: number,
  dailyLimit: number | null,
): Promise<boolean> {
  const res = await db
    .updateTable('senders')
    .set({ rate_per_second: ratePerSecond, daily_limit: dailyLimit, updated_at: sql`now()` })
    .where('id', '=', id)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}
