import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { AuditAction, AuditChanges, AuditTargetType } from '@herald/contract';

/**
 * Audit entries for the Audit Log journey, written straight into the e2e server's embedded
 * PostgreSQL (its port from the cluster's postmaster.pid, its password from DATA_DIR) with the
 * scope worked out as the server's recordAudit does: the actor and the subject with their
 * ancestors.
 */

export interface E2eAuditEntry {
  actorId: string | null;
  actorLabel: string;
  actorRole: string | null;
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null; label: string | null };
  subjectId: string | null;
  changes?: AuditChanges;
  ip?: string;
  userAgent?: string;
}

function ownerUrl(): string {
  const dataDir = inject('dataDir');
  const password = fs.readFileSync(path.join(dataDir, 'postgres.secret'), 'utf8').trim();
  const pid = fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
  const port = pid.split('\n')[3]?.trim();
  if (!port) throw new Error('audit-entries: no port in postmaster.pid');
  return `postgres://herald:${encodeURIComponent(password)}@127.0.0.1:${port}/herald`;
}

export async function writeAuditEntries(entries: readonly E2eAuditEntry[]): Promise<void> {
  const client = new pg.Client({ connectionString: ownerUrl() });
  await client.connect();
  try {
    for (const e of entries) {
      await client.query(
        `INSERT INTO audit_log (actor_user_id, actor_label, actor_role, ip, user_agent, action,
           target_type, target_id, target_label, subject_user_id, scope, changes)
         SELECT $1::uuid, $2, $3, $4, $5, $6, $7, $8, $9, $10::uuid,
           coalesce((SELECT array_agg(DISTINCT x) FROM users u, unnest(u.ancestors || u.id) x
                     WHERE u.id = ANY ($11::uuid[])), '{}'),
           $12::jsonb`,
        [
          e.actorId,
          e.actorLabel,
          e.actorRole,
          e.ip ?? '198.51.100.20',
          e.userAgent ?? 'e2e-agent/1.0',
          e.action,
          e.target.type,
          e.target.id,
          e.target.label,
          e.subjectId,
          [e.actorId, e.subjectId].filter((id): id is string => id !== null),
          e.changes ? JSON.stringify(e.changes) : null,
        ],
      );
    }
  } finally {
    await client.end();
  }
}
