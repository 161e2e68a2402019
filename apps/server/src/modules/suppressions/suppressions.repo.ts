import { sql } from 'kysely';
import type { SuppressionSource } from '@herald/contract';
import type { DbOrTx, Tx } from '../../db/database.js';

/**
 * Queries of the suppression list (docs/product.md, Opt-outs). Every read names its owner, or,
 * for the Admin's view of everyone's, none; the service decides who may ask which.
 */

/** Where a page starts: the last row's created_at in microseconds and its id. */
export interface SuppressionCursor {
  micros: string;
  id: string;
}

export interface SuppressionFilter {
  /** Only this owner's entries; undefined: every owner's (the Admin). */
  ownerId: string | undefined;
  /** Digits the number contains. */
  search: string | undefined;
}

const COLUMNS = [
  's.id',
  's.phone',
  's.source',
  's.created_at',
  's.owner_id',
  'u.name as owner_name',
  'u.email as owner_email',
] as const;

function filtered(db: DbOrTx, f: SuppressionFilter) {
  return db
    .selectFrom('suppressions as s')
    .innerJoin('users as u', 'u.id', 's.owner_id')
    .$if(f.ownerId !== undefined, (q) => q.where('s.owner_id', '=', f.ownerId!))
    .$if(f.search !== undefined, (q) => q.where('s.phone', 'like', `%${f.search!}%`))
    .select(COLUMNS)
    .select(
      sql<string>`(extract(epoch from s.created_at) * 1000000)::bigint::text`.as('cursor_micros'),
    );
}

/** One page, newest first, after `cursor` (suppressions_owner_page_idx or _page_idx). */
export function listPage(
  db: DbOrTx,
  f: SuppressionFilter,
  cursor: SuppressionCursor | undefined,
  limit: number,
) {
  return filtered(db, f)
    .$if(cursor !== undefined, (q) =>
      q.where(
        sql<boolean>`(s.created_at, s.id) < (timestamptz 'epoch' + ${cursor!.micros}::bigint * interval '1 microsecond', ${cursor!.id}::uuid)`,
      ),
    )
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .execute();
}

export type SuppressionRow = Awaited<ReturnType<typeof listPage>>[number];

export function findById(db: DbOrTx, id: string) {
  return filtered(db, { ownerId: undefined, search: undefined })
    .where('s.id', '=', id)
    .executeTakeFirst();
}

/** Adds one number; undefined when the owner has it already. */
export async function insertOne(
  tx: Tx,
  ownerId: string,
  phone: string,
  source: SuppressionSource,
): Promise<string | undefined> {
  const row = await tx
    .insertInto('suppressions')
    .values({ owner_id: ownerId, phone, source })
    .onConflict((oc) => oc.columns(['owner_id', 'phone']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Adds many numbers of one owner in one statement; answers how many were new. */
export async function insertMany(
  tx: Tx,
  ownerId: string,
  phones: readonly string[],
  source: SuppressionSource,
): Promise<number> {
  if (phones.length === 0) return 0;
  const { rows } = await sql<{ added: number }>`
    WITH added AS (
      INSERT INTO suppressions (owner_id, phone, source)
      SELECT ${ownerId}::uuid, p, ${source}::text
        FROM unnest(${[...phones]}::text[]) AS p ORDER BY p
      ON CONFLICT (owner_id, phone) DO NOTHING
      RETURNING 1
    )
    SELECT count(*)::int AS added FROM added`.execute(tx);
  return rows[0]?.added ?? 0;
}

/**
 * Adds each (campaign, phone) pair's number to the list of the campaign's owner, in one
 * statement, in key order (two writers adding the same numbers never deadlock on them).
 */
export async function insertForCampaigns(
  tx: DbOrTx,
  pairs: readonly { campaignId: string; phone: string }[],
  source: SuppressionSource,
): Promise<void> {
  if (pairs.length === 0) return;
  await sql`
    INSERT INTO suppressions (owner_id, phone, source)
    SELECT DISTINCT c.user_id, x.phone, ${source}::text
      FROM unnest(${pairs.map((p) => p.campaignId)}::uuid[],
                  ${pairs.map((p) => p.phone)}::text[]) AS x(campaign_id, phone)
      JOIN campaigns c ON c.id = x.campaign_id
     WHERE x.phone ~ '^[0-9]{7,15}$'
     ORDER BY 1, 2
    ON CONFLICT (owner_id, phone) DO NOTHING`.execute(tx);
}

export async function deleteById(tx: Tx, id: string): Promise<boolean> {
  const res = await tx.deleteFrom('suppressions').where('id', '=', id).executeTakeFirst();
  return res.numDeletedRows > 0n;
}

/** Removes the owner's entry for the number: its id; nothing when it had none. */
export async function deleteByPhone(
  tx: DbOrTx,
  ownerId: string,
  phone: string,
): Promise<string | undefined> {
  const row = await tx
    .deleteFrom('suppressions')
    .where('owner_id', '=', ownerId)
    .where('phone', '=', phone)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * How many of `numbers` the owner suppressed: the array joined to the unique index in one
 * statement, however many numbers (up to a campaign's million) are asked.
 */
export async function countSuppressed(
  db: DbOrTx,
  ownerId: string,
  numbers: readonly string[],
): Promise<number> {
  if (numbers.length === 0) return 0;
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n
      FROM (SELECT DISTINCT p FROM unnest(${[...numbers]}::text[]) AS p) x
      JOIN suppressions s ON s.owner_id = ${ownerId}::uuid AND s.phone = x.p`.execute(db);
  return rows[0]?.n ?? 0;
}

/** The user a caller names (Campaign For, the owner filter), with what scope needs. */
export function findUser(db: DbOrTx, by: { id: string } | { email: string }) {
  const q = db.selectFrom('users').select(['id', 'email', 'name', 'ancestors']);
  return (
    'id' in by ? q.where('id', '=', by.id) : q.where('email', '=', by.email.trim().toLowerCase())
  ).executeTakeFirst();
}
