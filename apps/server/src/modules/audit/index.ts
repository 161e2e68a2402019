export { recordAudit, type AuditEntry, type AuditTarget } from './audit.repo.js';
export {
  anonymousActor,
  auditChanges,
  requestActor,
  SYSTEM_ACTOR,
  type AuditActor,
} from './audit-actor.js';
