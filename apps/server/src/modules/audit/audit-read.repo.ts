import { sql, type Selectable } from 'kysely';
import {
  AUDIT_RETENTION_DEFAULT_DAYS,
  type AuditAction,
  type AuditTargetType,
} from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import type { AuditLogTable } from '../../db/schema.js';

/**
 * Reading the audit log (docs/audit.md, The Audit Log screen): keyset pages on `id`, newest
 * first. The Admin reads the primary key backwards; a Reseller, Sub-Reseller or User reads the
 * entries whose `scope` holds it (the GIN index). An action filter is a list of actions (an
 * area is expanded in the contract), so the (action, id) index answers it; a user id as actor
 * takes the (actor_user_id, id) index, a target id the (target_type, target_id, id) one.
 */

/** Whose entries: every one (Admin), or those whose scope holds this user. */
export type AuditViewer = { kind: 'all' } | { kind: 'scope'; userId: string };

export interface AuditReadFilter {
  actorUserId?: string;
  /** Text found in the actor's label (case ignored). */
  actorText?: string;
  actions?: readonly AuditAction[];
  targetType?: AuditTargetType;
  /** A target id, or text found in its label. */
  target?: string;
  from?: Date;
  until?: Date;
  /** Only ids below this one. */
  before?: string;
}

/** An entry as the log's readers get it: the table's row without its scope. */
export type AuditRow = Omit<Selectable<AuditLogTable>, 'scope'> & {
  /** The actor is the viewer or in its subtree (always true for the Admin). */
  origin_visible: boolean;
};

/** `%text%` for ILIKE, its wildcards taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of entries, newest first. */
export async function auditRows(
  db: DbOrTx,
  viewer: AuditViewer,
  f: AuditReadFilter,
  limit: number,
): Promise<AuditRow[]> {
  return (await auditRowsQuery(db, viewer, f, limit).execute()) as AuditRow[];
}

/** The page's query, not yet run (its plan is checked in audit-read-plan.test.ts). */
export function auditRowsQuery(db: DbOrTx, viewer: AuditViewer, f: AuditReadFilter, limit: number) {
  let q = db
    .selectFrom('audit_log as l')
    .select([
      'l.id',
      'l.at',
      'l.actor_user_id',
      'l.actor_api_key_id',
      'l.actor_label',
      'l.actor_role',
      'l.ip',
      'l.user_agent',
      'l.action',
      'l.target_type',
      'l.target_id',
      'l.target_label',
      'l.subject_user_id',
      'l.changes',
    ]);
  if (viewer.kind === 'all') {
    q = q.select(sql<boolean>`true`.as('origin_visible'));
  } else {
    const me = viewer.userId;
    q = q.where(sql<boolean>`l.scope @> ARRAY[${me}::uuid]`).select(
      sql<boolean>`(l.actor_user_id = ${me}::uuid OR EXISTS (
          SELECT 1 FROM users a WHERE a.id = l.actor_user_id AND ${me}::uuid = ANY (a.ancestors)))`.as(
        'origin_visible',
      ),
    );
  }
  if (f.actorUserId) q = q.where('l.actor_user_id', '=', f.actorUserId);
  if (f.actorText) q = q.where('l.actor_label', 'ilike', contains(f.actorText));
  if (f.actions) q = q.where('l.action', 'in', [...f.actions]);
  if (f.targetType) q = q.where('l.target_type', '=', f.targetType);
  if (f.target) {
    const target = f.target;
    q = q.where((eb) =>
      eb.or([eb('l.target_id', '=', target), eb('l.target_label', 'ilike', contains(target))]),
    );
  }
  if (f.from) q = q.where('l.at', '>=', f.from);
  if (f.until) q = q.where('l.at', '<', f.until);
  if (f.before) q = q.where(sql<boolean>`l.id < ${f.before}::bigint`);
  return q.orderBy('l.id', 'desc').limit(limit);
}

/** The retention in days, as the Admin set it. */
export async function findAuditRetentionDays(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom('security_settings')
    .select('audit_retention_days')
    .executeTakeFirst();
  return row?.audit_retention_days ?? AUDIT_RETENTION_DEFAULT_DAYS;
}

export function setAuditRetentionDays(db: DbOrTx, days: number) {
  return db
    .updateTable('security_settings')
    .set({ audit_retention_days: days, updated_at: sql`now()` })
    .execute();
}

/** Removes at most `limit` entries past the retention (the owner's function); answers how many. */
export async function pruneAuditBatch(db: DbOrTx, limit: number): Promise<number> {
  const res = await sql<{ n: string }>`SELECT audit_log_prune(${limit}) AS n`.execute(db);
  return Number(res.rows[0]?.n ?? 0);
}
