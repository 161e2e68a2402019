import type { Selectable } from 'kysely';
import { expect } from 'vitest';
import type { AuditAction, AuditChanges } from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import type { AuditLogTable } from '../../db/schema.js';
import { ADMIN_EMAIL } from '../../../test/harness.js';

/** Test-only reads of the audit log, for the modules' audit tests. */

export interface AuditRowFilter {
  action?: AuditAction;
  targetId?: string;
  actorUserId?: string | null;
  /** Only entries after this id (lastAuditId). */
  since?: string;
}

export interface AuditRow {
  id: string;
  action: string;
  actor_user_id: string | null;
  actor_api_key_id: string | null;
  actor_label: string;
  actor_role: string | null;
  ip: string | null;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  subject_user_id: string | null;
  changes: AuditChanges | null;
}

/** The entries matching every given field, oldest first. */
export async function auditRows(db: DbOrTx, filter: AuditRowFilter = {}): Promise<AuditRow[]> {
  let q = db
    .selectFrom('audit_log')
    .select([
      'id',
      'action',
      'actor_user_id',
      'actor_api_key_id',
      'actor_label',
      'actor_role',
      'ip',
      'target_type',
      'target_id',
      'target_label',
      'subject_user_id',
      'changes',
    ])
    .orderBy('id');
  if (filter.action !== undefined) q = q.where('action', '=', filter.action);
  if (filter.targetId !== undefined) q = q.where('target_id', '=', filter.targetId);
  if (filter.since !== undefined) q = q.where('id', '>', filter.since);
  if (filter.actorUserId === null) q = q.where('actor_user_id', 'is', null);
  else if (filter.actorUserId !== undefined) {
    q = q.where('actor_user_id', '=', filter.actorUserId);
  }
  const rows = await q.execute();
  return rows.map((r) => ({
    ...r,
    id: String(r.id),
    changes: (r.changes as AuditChanges | null) ?? null,
  }));
}

/** The highest entry id so far ('0' for none): later reads count only what came after. */
export async function lastAuditId(db: DbOrTx): Promise<string> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id === null || row?.id === undefined ? '0' : String(row.id);
}

/** Exactly one entry matches; answers it. */
export async function onlyAuditRow(db: DbOrTx, filter: AuditRowFilter): Promise<AuditRow> {
  const rows = await auditRows(db, filter);
  expect(rows, JSON.stringify(rows)).toHaveLength(1);
  return rows[0]!;
}

/** The entries written after `mark` (lastAuditId), whole rows, oldest first. */
export function auditSince(db: DbOrTx, mark: string): Promise<Selectable<AuditLogTable>[]> {
  return db.selectFrom('audit_log').selectAll().where('id', '>', mark).orderBy('id').execute();
}

/** The one entry written after `mark`; fails unless exactly one was, of `action`. */
export async function onlyEntrySince(db: DbOrTx, mark: string, action: AuditAction) {
  const rows = await auditSince(db, mark);
  expect(rows.map((r) => r.action)).toEqual([action]);
  return rows[0]!;
}

/** Fails if any entry was written after `mark`. */
export async function expectNoEntrySince(db: DbOrTx, mark: string): Promise<void> {
  expect((await auditSince(db, mark)).map((r) => r.action)).toEqual([]);
}

/** The seeded Admin's id: the actor of the Admin's entries. */
export async function adminUserId(db: DbOrTx): Promise<string> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', ADMIN_EMAIL)
    .executeTakeFirstOrThrow();
  return row.id;
}
