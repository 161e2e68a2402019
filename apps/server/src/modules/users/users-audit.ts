import type { AuditChanges } from '@herald/contract';
import type { UserUpdate } from '../../db/schema.js';
import { auditChanges, type AuditActor, type AuditEntry } from '../audit/index.js';
import type { LockedUser } from './users.repo.js';

/**
 * The audit entries of one Edit User (docs/audit.md): a role change, a block or unblock and an
 * edit of the other fields are each their own action, so each can be found by its name. One
 * request that changes the role and the name writes `user.role_change` (the role) and
 * `user.update` (the name); a request that changes nothing writes none.
 */
export function userEditEntries(
  actor: AuditActor,
  target: LockedUser,
  set: UserUpdate,
): AuditEntry[] {
  const stored: Record<string, unknown> = target;
  const before = Object.fromEntries(Object.keys(set).map((key) => [key, stored[key]]));
  const { role, status, ...rest } = auditChanges(before, set);
  const entry = (action: AuditEntry['action'], changes: AuditChanges): AuditEntry => ({
    actor,
    action,
    target: { type: 'user', id: target.id, label: target.email, subjectUserId: target.id },
    changes,
  });
  const entries: AuditEntry[] = [];
  if (role) entries.push(entry('user.role_change', { role }));
  if (status) {
    entries.push(entry(status.after === 'Blocked' ? 'user.block' : 'user.unblock', { status }));
  }
  if (Object.keys(rest).length > 0) entries.push(entry('user.update', rest));
  return entries;
}
