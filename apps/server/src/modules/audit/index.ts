export { recordAudit, type AuditEntry, type AuditTarget } from './audit.repo.js';
export {
  anonymousActor,
  auditChanges,
  requestActor,
  SYSTEM_ACTOR,
  type AuditActor,
} from './audit-actor.js';
export { pruneAuditLog } from './audit-retention.js';
export { findAuditRetentionDays, setAuditRetentionDays } from './audit-read.repo.js';
