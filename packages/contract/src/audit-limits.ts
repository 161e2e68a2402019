/** The Audit Log's limits (docs/audit.md). */

/** Retention bounds; the database's CHECK holds the same (migration 0038). */
export const AUDIT_RETENTION_MIN_DAYS = 90;
export const AUDIT_RETENTION_MAX_DAYS = 3650;
export const AUDIT_RETENTION_DEFAULT_DAYS = 400;

export const AUDIT_LOG_PAGE_DEFAULT = 50;
export const AUDIT_LOG_PAGE_MAX = 200;

/**
 * Per user: the CSV export streams every matching entry (possibly millions); a person exports a
 * few times an hour.
 */
export const AUDIT_EXPORT_RATE_LIMIT = { max: 10, windowSeconds: 10 * 60 } as const;
