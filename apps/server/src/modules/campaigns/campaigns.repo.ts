import { sql, type SqlBool } from 'kysely';
import {
  AWAITING_APPROVAL_FILTER,
  AWAITING_APPROVAL_STATUSES,
  type CampaignListFilters,
  type CampaignStatus,
  type CampaignTemplate,
  type Role,
} from '@herald/contract';
import type { Db, DbOrTx, Tx } from '../../db/database.js';
import type { CampaignFilesTable, CampaignsTable } from '../../db/schema.js';
import type { Insertable } from 'kysely';
import type { Actor } from '../../policies/scope.js';
import { copyIn } from '../../db/copy.js';
import { localDayEnd, localDayStart } from '../../lib/local-day.js';
import { shardSums, summedCounts } from './delivery-counts.sql.js';
import { recipientCopyChunks } from './recipient-copy.js';
import { zonesOfKeys } from './zones/zones.js';

/** Campaign rows with the owner's and creator's names, as every read needs them. */
export interface CampaignView {
  id: string;
  name: string;
  user_id: string;
  owner_email: string;
  owner_name: string;
  owner_ancestors: string[];
  creator_id: string;
  creator_email: string;
  creator_role: Role;
  creator_ancestors: string[];
  credit_type: CampaignsTable['credit_type'];
  message: string;
  country_name: string | null;
  country_code: string | null;
  cta_call: string | null;
  cta_call_text: string | null;
  cta_url: string | null;
  cta_url_text: string | null;
  status: CampaignStatus;
  recipient_count: number;
  report_count: number;
  report_delivered: number;
  created_at: Date;
  /** The delivery engine's columns (migration 0016); dispatch_state NULL: never dispatched. */
  simulated: boolean;
  dispatch_state: CampaignsTable['dispatch_state'];
  dispatch_resume_at: Date | null;
  /** Waiting for quiet hours to end (migration 0040). */
  dispatch_quiet: boolean;
  sent_count: number;
  delivered_count: number;
  read_count: number;
  failed_count: number;
  delivery_refunded: number;
  rejection_reason: string | null;
  template: CampaignTemplate | null;
  /** Made with a test API key (migration 0034). */
  test: boolean;
  send_at: Date | null;
}

export interface FileView {
  id: string;
  kind: CampaignFilesTable['kind'];
  original_name: string;
  mime: string;
  size: string;
}

export function findUserByEmail(db: DbOrTx, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'ancestors', 'status'])
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
}

export async function insertCampaign(
  tx: Tx,
  values: Insertable<CampaignsTable>,
): Promise<{ id: string }> {
  return tx.insertInto('campaigns').values(values).returning('id').executeTakeFirstOrThrow();
}

/**
 * All recipients with one COPY on the transaction's connection (all rows or none with the
 * campaign), in binary and in index order (docs/performance.md, campaign intake). `keys`
 * come sorted and deduped from the scanner, so the primary key never sees a conflict. Each
 * row carries its zone id, and the campaign the distinct ones (docs/delivery.md, Quiet hours).
 */
export async function insertRecipients(tx: Tx, campaignId: string, keys: Float64Array) {
  const zones = zonesOfKeys(keys);
  const copied = await copyIn(
    tx,
    'COPY campaign_recipients (campaign_id, phone, zone) FROM STDIN (FORMAT binary)',
    recipientCopyChunks(campaignId, keys, zones.ids),
  );
  if (copied !== keys.length) {
    throw new Error(`campaign ${campaignId}: copied ${copied} of ${keys.length} recipients`);
  }
  await tx
    .updateTable('campaigns')
    .set({ recipient_zones: zones.distinct })
    .where('id', '=', campaignId)
    .execute();
}

export async function insertFiles(tx: Tx, rows: Insertable<CampaignFilesTable>[]) {
  if (rows.length > 0) await tx.insertInto('campaign_files').values(rows).execute();
}

function campaignViews(db: DbOrTx) {
  return db
    .selectFrom('campaigns')
    .innerJoin('users', 'users.id', 'campaigns.user_id')
    .innerJoin('users as creator', 'creator.id', 'campaigns.created_by')
    .leftJoinLateral(shardSums, (join) => join.onTrue())
    .select([
      'campaigns.id',
      'campaigns.user_id',
      'users.email as owner_email',
      'users.name as owner_name',
      'users.ancestors as owner_ancestors',
      'creator.id as creator_id',
      'creator.email as creator_email',
      'creator.role as creator_role',
      'creator.ancestors as creator_ancestors',
      'campaigns.credit_type',
      'campaigns.name',
      'campaigns.message',
      'campaigns.country_name',
      'campaigns.country_code',
      'campaigns.cta_call',
      'campaigns.cta_call_text',
      'campaigns.cta_url',
      'campaigns.cta_url_text',
      'campaigns.status',
      'campaigns.recipient_count',
      'campaigns.report_count',
      'campaigns.report_delivered',
      'campaigns.created_at',
      'campaigns.simulated',
      'campaigns.dispatch_state',
      'campaigns.dispatch_quiet',
      'campaigns.dispatch_resume_at',
      ...summedCounts,
      'campaigns.delivery_refunded',
      'campaigns.rejection_reason',
      'campaigns.template',
      'campaigns.test',
      'campaigns.send_at',
    ]);
}

export function getCampaign(db: DbOrTx, id: string): Promise<CampaignView | undefined> {
  return campaignViews(db).where('campaigns.id', '=', id).executeTakeFirst();
}

/** Newest first; one more row than asked tells whether another page follows. */
export function listCampaigns(
  db: Db,
  actor: Actor,
  filters: CampaignListFilters,
  ownerId: string | undefined,
): Promise<CampaignView[]> {
  let q = campaignViews(db);
  if (actor.role === 'User') q = q.where('campaigns.user_id', '=', actor.id);
  else if (actor.role !== 'Admin') {
    q = q.where((eb) =>
      eb.or([
        eb('users.id', '=', actor.id),
        sql<SqlBool>`users.ancestors @> ARRAY[${actor.id}]::uuid[]`,
      ]),
    );
  }
  if (ownerId) q = q.where('campaigns.user_id', '=', ownerId);
  if (filters.userEmail) q = q.where('users.email', '=', filters.userEmail);
  if (filters.status === AWAITING_APPROVAL_FILTER) {
    q = q.where('campaigns.status', 'in', [...AWAITING_APPROVAL_STATUSES]);
  } else if (filters.status) q = q.where('campaigns.status', '=', filters.status);
  // From and To are the viewer's local days, as in Transaction History (docs/product.md, Decisions).
  if (filters.from) {
    q = q.where('campaigns.created_at', '>=', localDayStart(filters.from, filters.tzOffset));
  }
  if (filters.to) {
    q = q.where('campaigns.created_at', '<', localDayEnd(filters.to, filters.tzOffset));
  }
  if (filters.cursor) {
    q = q.where(
      sql<SqlBool>`(campaigns.created_at, campaigns.id) <
        (SELECT c.created_at, c.id FROM campaigns c WHERE c.id = ${filters.cursor}::uuid)`,
    );
  }
  return q
    .orderBy('campaigns.created_at', 'desc')
    .orderBy('campaigns.id', 'desc')
    .limit(filters.limit + 1)
    .execute();
}

export function filesOf(db: DbOrTx, campaignId: string): Promise<FileView[]> {
  return db
    .selectFrom('campaign_files')
    .select(['id', 'kind', 'original_name', 'mime', 'size'])
    .where('campaign_id', '=', campaignId)
    .orderBy('kind')
    .orderBy('position')
    .execute();
}

/** Of these stored names, the ones a campaign's file row names (the orphan sweep keeps those). */
export async function knownFileNames(db: DbOrTx, names: readonly string[]): Promise<string[]> {
  const known = await db
    .selectFrom('campaign_files')
    .select('stored_name')
    .where('stored_name', 'in', [...names])
    .execute();
  return known.map((r) => r.stored_name);
}
