import {
  auditActionsMatching,
  type AuditEntryView,
  type AuditLogFilters,
  type AuditLogReply,
  type AuditValue,
} from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import type { AuthUser } from '../../plugins/auth-state.js';
import {
  auditRows,
  type AuditReadFilter,
  type AuditRow,
  type AuditViewer,
} from './audit-read.repo.js';

/**
 * The Audit Log's reading side (docs/audit.md, The Audit Log screen): who sees which entries,
 * the query's filters as the repository takes them, and an entry as the API shows it.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Admin sees every entry; everyone else those whose scope holds them (a User: its own). */
export function auditViewer(actor: AuthUser): AuditViewer {
  return actor.role === 'Admin' ? { kind: 'all' } : { kind: 'scope', userId: actor.id };
}

export function auditFilter(q: AuditLogFilters): AuditReadFilter {
  const actorIsId = q.actor !== undefined && UUID.test(q.actor);
  return {
    actorUserId: actorIsId ? q.actor?.toLowerCase() : undefined,
    actorText: actorIsId ? undefined : q.actor,
    actions: q.action === undefined ? undefined : auditActionsMatching(q.action),
    targetType: q.targetType,
    target: q.target,
    from: q.from ? new Date(q.from) : undefined,
    until: q.to ? new Date(q.to) : undefined,
    before: q.before,
  };
}

/** An entry as the API shows it: IP and user agent withheld when the actor is not in view. */
export function presentAuditEntry(row: AuditRow): AuditEntryView {
  const visible = row.origin_visible;
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: {
      userId: row.actor_user_id,
      label: row.actor_label,
      role: row.actor_role,
      apiKeyId: row.actor_api_key_id,
    },
    ip: visible ? row.ip : null,
    userAgent: visible ? row.user_agent : null,
    originHidden: !visible,
    action: row.action,
    target: { type: row.target_type, id: row.target_id, label: row.target_label },
    subjectUserId: row.subject_user_id,
    changes: (row.changes ?? {}) as Record<string, { before: AuditValue; after: AuditValue }>,
  };
}

/** GET /api/audit-log: one keyset page. */
export async function auditLogPage(
  db: DbOrTx,
  actor: AuthUser,
  q: AuditLogFilters,
): Promise<AuditLogReply> {
  const rows = await auditRows(db, auditViewer(actor), auditFilter(q), q.limit);
  const last = rows.at(-1);
  return {
    entries: rows.map(presentAuditEntry),
    nextCursor: rows.length === q.limit && last ? last.id : null,
  };
}
