import { sql } from 'kysely';
import type { CreditType, ProviderKind } from '@herald/contract';
import type { DbOrTx } from '../../../db/database.js';

/** WhatsApp senders' templates (migration 0033) and the sender a credit type goes through. */

export function listTemplates(db: DbOrTx, senderId: string) {
  return db
    .selectFrom('sender_templates')
    .selectAll()
    .where('sender_id', '=', senderId)
    .orderBy('name')
    .orderBy('language')
    .execute();
}

export function getTemplate(db: DbOrTx, id: string) {
  return db.selectFrom('sender_templates').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countTemplates(db: DbOrTx, senderId: string): Promise<number> {
  const row = await db
    .selectFrom('sender_templates')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('sender_id', '=', senderId)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function insertTemplate(
  db: DbOrTx,
  t: { senderId: string; name: string; language: string; body: string; variables: number },
): Promise<string> {
  const row = await db
    .insertInto('sender_templates')
    .values({
      sender_id: t.senderId,
      name: t.name,
      language: t.language,
      body: t.body,
      variables: t.variables,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteTemplate(db: DbOrTx, id: string): Promise<boolean> {
  const res = await db.deleteFrom('sender_templates').where('id', '=', id).executeTakeFirst();
  return res.numDeletedRows > 0n;
}

/** The sender a credit type goes through now: its route's, else the default one. */
export async function routedSender(
  db: DbOrTx,
  creditType: CreditType,
): Promise<{ id: string; kind: ProviderKind } | undefined> {
  const { rows } = await sql<{ id: string; kind: ProviderKind }>`
    SELECT s.id, p.kind FROM senders s JOIN providers p ON p.id = s.provider_id
     WHERE s.id = coalesce(
       (SELECT r.sender_id FROM credit_routes r WHERE r.credit_type = ${creditType}),
       (SELECT d.id FROM senders d WHERE d.is_default))`.execute(db);
  return rows[0];
}
