/**
 * The audit log's vocabulary (docs/audit.md): every action it records, named `area.verb`, and
 * the kinds of thing an action is done to. The server writes only these; the Audit Log screen
 * filters by them.
 */

export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'password.change',
  'password.reset',
  'password.set',
  'password.admin_reset',
  'two_factor.enable',
  'two_factor.disable',
  'two_factor.recovery_codes',
  'two_factor.reset',
  'security.update',
  'user.create',
  'user.update',
  'user.role_change',
  'user.block',
  'user.unblock',
  'credits.add',
  'credits.remove',
  'campaign.create',
  'campaign.status_change',
  'campaign.report_upload',
  'provider.create',
  'provider.update',
  'provider.delete',
  'sender.create',
  'sender.update',
  'sender.delete',
  'template.create',
  'template.update',
  'template.delete',
  'routing.update',
  'api_key.create',
  'api_key.revoke',
  'webhook_endpoint.create',
  'webhook_endpoint.update',
  'webhook_endpoint.enable',
  'webhook_endpoint.disable',
  'webhook_endpoint.rotate_secret',
  'webhook_endpoint.delete',
  'suppression.add',
  'suppression.remove',
  'branding.update',
  'quiet_hours.update',
  'backup.create',
  'backup.download',
  'cleanup.run',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = [
  'user',
  'campaign',
  'provider',
  'sender',
  'template',
  'routing',
  'api_key',
  'webhook_endpoint',
  'suppression',
  'branding',
  'backup',
  'cleanup',
  'settings',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** A JSON value as an audit entry keeps it. */
export type AuditValue = string | number | boolean | null | AuditValue[];

/** The changed fields of an entry: each with its value before and after. */
export type AuditChanges = Record<string, { before: AuditValue; after: AuditValue }>;
