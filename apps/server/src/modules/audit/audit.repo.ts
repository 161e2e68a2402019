import { sql } from 'kysely';
import type { AuditAction, AuditChanges, AuditTargetType } from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import type { AuditActor } from './audit-actor.js';

/**
 * Writing the audit log (docs/audit.md). Callers pass the transaction of the change itself, so
 * an entry exists exactly when its change committed.
 */

/** What an action was done to. */
export interface AuditTarget {
  type: AuditTargetType;
  /** The thing's id (a user's, a campaign's, …); null for a one-of-a-kind thing (routing). */
  id: string | null;
  /** How the screen names it: an email, a campaign's name, an endpoint's URL. */
  label: string | null;
  /**
   * The account the thing belongs to (the user edited, a campaign's or key's owner); with the
   * actor, it decides whose subtree view shows the entry. Null for platform-wide things.
   */
  subjectUserId: string | null;
}

export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  target: AuditTarget;
  /** The changed fields only; never a password, token or secret (auditChanges drops them). */
  changes?: AuditChanges | null;
}

/**
 * Appends one entry. Its `scope` is the actor and the subject user with their ancestors, read
 * from `users` in the same statement.
 */
export async function recordAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  const { actor, action, target } = entry;
  const people = [actor.userId, target.subjectUserId].filter((id): id is string => id !== null);
  const changes =
    entry.changes && Object.keys(entry.changes).length > 0 ? JSON.stringify(entry.changes) : null;
  await sql`
    INSERT INTO audit_log (actor_user_id, actor_api_key_id, actor_label, actor_role, ip,
      user_agent, action, target_type, target_id, target_label, subject_user_id, scope, changes)
    SELECT ${actor.userId}::uuid, ${actor.apiKeyId}::uuid, ${actor.label}, ${actor.role},
      ${actor.ip}, ${actor.userAgent}, ${action}, ${target.type}, ${target.id}, ${target.label},
      ${target.subjectUserId}::uuid,
      coalesce((SELECT array_agg(DISTINCT x) FROM users u, unnest(u.ancestors || u.id) x
                WHERE u.id = ANY (${people}::uuid[])), '{}'),
      ${changes}::jsonb
  `.execute(db);
}
