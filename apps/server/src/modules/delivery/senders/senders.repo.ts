import { sql } from 'kysely';
import type { CreditType, ProviderKind } from '@herald/contract';
import type { DbOrTx } from '../../../db/database.js';

/** Senders with their provider and today's usage (UTC day), as the Providers screen lists them. */

export interface SenderRow {
  id: string;
  name: string;
  provider_id: string;
  provider_name: string;
  provider_kind: ProviderKind;
  address: string;
  rate_per_second: number;
  daily_limit: number | null;
  is_default: boolean;
  sent_today: number;
}

function sendersWithUsage(db: DbOrTx) {
  return db
    .selectFrom('senders')
    .innerJoin('providers as p', 'p.id', 'senders.provider_id')
    .leftJoin('sender_daily_usage as u', (join) =>
      join
        .onRef('u.sender_id', '=', 'senders.id')
        // The daily limit counts UTC days, so "today" is today's UTC date.
        .on('u.day', '=', sql<Date>`(now() AT TIME ZONE 'UTC')::date`),
    )
    .select([
      'senders.id',
      'senders.name',
      'senders.provider_id',
      'p.name as provider_name',
      'p.kind as provider_kind',
      'senders.address',
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

export interface SenderChange {
  name?: string;
  address?: string;
  ratePerSecond: number;
  dailyLimit: number | null;
}

/** Sets the limits (and name, address when given); false when no such sender. */
export async function updateSender(db: DbOrTx, id: string, c: SenderChange): Promise<boolean> {
  const res = await db
    .updateTable('senders')
    .set({
      rate_per_second: c.ratePerSecond,
      daily_limit: c.dailyLimit,
      ...(c.name !== undefined ? { name: c.name } : {}),
      ...(c.address !== undefined ? { address: c.address } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function insertSender(
  db: DbOrTx,
  providerId: string,
  c: Required<SenderChange>,
): Promise<string> {
  const row = await db
    .insertInto('senders')
    .values({
      provider_id: providerId,
      name: c.name,
      address: c.address,
      rate_per_second: c.ratePerSecond,
      daily_limit: c.dailyLimit,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Whether a campaign is being sent through the sender (not yet settled). */
export async function senderSending(db: DbOrTx, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('campaigns')
    .select('id')
    .where('sender_id', '=', id)
    .where('delivery_settled', '=', false)
    .where('dispatch_state', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteSender(db: DbOrTx, id: string): Promise<boolean> {
  const res = await db.deleteFrom('senders').where('id', '=', id).executeTakeFirst();
  return res.numDeletedRows > 0n;
}

/** Each routed credit type's sender. */
export function listRoutes(db: DbOrTx) {
  return db.selectFrom('credit_routes').select(['credit_type', 'sender_id']).execute();
}

/** Routes a credit type to a sender, or (null) back to the default sender. */
export async function setRoute(db: DbOrTx, creditType: CreditType, senderId: string | null) {
  if (senderId === null) {
    await db.deleteFrom('credit_routes').where('credit_type', '=', creditType).execute();
    return;
  }
  await db
    .insertInto('credit_routes')
    .values({ credit_type: creditType, sender_id: senderId })
    .onConflict((oc) => oc.column('credit_type').doUpdateSet({ sender_id: senderId }))
    .execute();
}
