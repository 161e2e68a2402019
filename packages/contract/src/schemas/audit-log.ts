import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, type AuditAction, type AuditValue } from '../audit.js';
import {
  AUDIT_LOG_PAGE_DEFAULT,
  AUDIT_LOG_PAGE_MAX,
  AUDIT_RETENTION_MAX_DAYS,
  AUDIT_RETENTION_MIN_DAYS,
} from '../audit-limits.js';
import { auditMessages as m } from '../audit-messages.js';
import { BigintCursorSchema, text } from './common.js';

/** The areas of the actions (`credits` of `credits.add`), in the order they first appear. */
export const AUDIT_AREAS = [...new Set(AUDIT_ACTIONS.map((a) => a.split('.')[0] ?? a))];

/** The actions an Action filter selects: the action itself, or every action of an area. */
export function auditActionsMatching(filter: string): AuditAction[] {
  return AUDIT_ACTIONS.filter((a) => a === filter || a.startsWith(`${filter}.`));
}

const emptyToUndefined = <T extends z.ZodType<unknown, string>>(schema: T) =>
  z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(schema.optional());

const Instant = z.iso.datetime({ offset: true, error: m.filterDateInvalid });

/** GET /api/audit-log and its CSV export: empty strings mean "not set". */
export const AuditLogQuerySchema = z
  .object({
    /** A user id, or text found in the actor's label (an email). */
    actor: emptyToUndefined(text().max(320)),
    /** One of AUDIT_ACTIONS, or an area (every action of it). */
    action: emptyToUndefined(
      text().refine((v) => auditActionsMatching(v).length > 0, m.filterActionInvalid),
    ),
    targetType: emptyToUndefined(z.enum(AUDIT_TARGET_TYPES, m.filterTargetTypeInvalid)),
    /** A target id, or text found in the target's label. */
    target: emptyToUndefined(text().max(320)),
    /** ISO instants: from inclusive, to exclusive. */
    from: emptyToUndefined(Instant),
    to: emptyToUndefined(Instant),
    /** The last id of the previous page (`nextCursor`). */
    before: emptyToUndefined(BigintCursorSchema),
    limit: z.coerce.number().int().min(1).max(AUDIT_LOG_PAGE_MAX).default(AUDIT_LOG_PAGE_DEFAULT),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), {
    message: m.filterRangeInvalid,
    path: ['to'],
  });
export type AuditLogQuery = z.input<typeof AuditLogQuerySchema>;
export type AuditLogFilters = z.output<typeof AuditLogQuerySchema>;

const AuditValueSchema: z.ZodType<AuditValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(AuditValueSchema)]),
);

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({
    userId: z.string().nullable(),
    label: z.string(),
    role: z.string().nullable(),
    /** The request came with an API key (its id), not a browser session. */
    apiKeyId: z.string().nullable(),
  }),
  /** Null when not recorded, or hidden: the actor is outside the viewer's subtree. */
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** True when IP and user agent are withheld from this viewer. */
  originHidden: z.boolean(),
  action: z.string(),
  target: z.object({
    type: z.string(),
    id: z.string().nullable(),
    label: z.string().nullable(),
  }),
  subjectUserId: z.string().nullable(),
  changes: z.record(z.string(), z.object({ before: AuditValueSchema, after: AuditValueSchema })),
});
export type AuditEntryView = z.infer<typeof AuditEntrySchema>;

export const AuditLogReplySchema = z.object({
  entries: z.array(AuditEntrySchema),
  /** Pass as `before` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type AuditLogReply = z.infer<typeof AuditLogReplySchema>;

/** The CSV export's columns. */
export const AUDIT_CSV_COLUMNS = [
  'Time (UTC)',
  'Actor',
  'Actor Role',
  'API Key',
  'Action',
  'Target Type',
  'Target ID',
  'Target',
  'Changes',
  'IP',
  'User Agent',
] as const;

/** The security settings' audit retention, in days. */
export const AuditRetentionDaysSchema = z
  .number({ error: m.retentionInvalid })
  .int(m.retentionInvalid)
  .min(AUDIT_RETENTION_MIN_DAYS, m.retentionInvalid)
  .max(AUDIT_RETENTION_MAX_DAYS, m.retentionInvalid);
