import type { Selectable } from 'kysely';
import { expect } from 'vitest';
import type { AuditAction } from '@herald/contract';
import type { Db } from '../../db/database.js';
import type { AuditLogTable } from '../../db/schema.js';

/**
 * Test-only helpers of the audit entries written by sign-ins, accounts, settings and
 * operations: a mark before an action, then exactly the entries written since.
 */

export type AuditRow = Selectable<AuditLogTable>;

/** The newest entry's id now ('0' for none): entries after it are the next action's. */
export async function auditMark(db: Db): Promise<string> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id === null || row?.id === undefined ? '0' : String(row.id);
}

/** The entries written after `mark`, oldest first. */
export function auditSince(db: Db, mark: string): Promise<AuditRow[]> {
  return db.selectFrom('audit_log').selectAll().where('id', '>', mark).orderBy('id').execute();
}

/** The one entry written after `mark`; fails unless exactly one was, of `action`. */
export async function onlyEntrySince(db: Db, mark: string, action: AuditAction) {
  const rows = await auditSince(db, mark);
  expect(rows.map((r) => r.action)).toEqual([action]);
  return rows[0]!;
}

/** Fails if any entry was written after `mark`. */
export async function expectNoEntrySince(db: Db, mark: string): Promise<void> {
  expect((await auditSince(db, mark)).map((r) => r.action)).toEqual([]);
}
