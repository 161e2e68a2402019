import { AUDIT_RETENTION_MAX_DAYS, AUDIT_RETENTION_MIN_DAYS } from './audit-limits.js';

/**
 * The Audit Log's texts (docs/audit.md): what the API answers in `{ message }` and the forms
 * check alike, and the screen's own words.
 */
export const auditMessages = {
  filterActionInvalid: 'Choose an action or an area from the list.',
  filterTargetTypeInvalid: 'Choose a target type from the list.',
  filterDateInvalid: 'Dates are ISO 8601 instants, such as 2026-12-01T00:00:00Z.',
  filterRangeInvalid: 'From must not be after To.',
  exportTooMany: 'Too many audit log exports. Please wait a few minutes and try again.',
  retentionInvalid: `Keep audit entries for ${AUDIT_RETENTION_MIN_DAYS} to ${AUDIT_RETENTION_MAX_DAYS} days.`,
} as const;

export const auditUi = {
  title: 'Audit Log',
  loading: 'Loading audit entries...',
  loadFailed: 'Could not load the audit log.',
  empty: 'No audit entries match these filters.',
  exportCsv: 'Export CSV',
  exportFailed: 'Could not export the audit log. Please try again.',
  preparing: 'Preparing…',
  actorLabel: 'Actor',
  actorPlaceholder: 'Email or user id',
  actionLabel: 'Action',
  allActions: 'All Actions',
  targetTypeLabel: 'Target Type',
  allTargetTypes: 'All Targets',
  targetLabel: 'Target',
  targetPlaceholder: 'Name, email or id',
  fromLabel: 'From',
  toLabel: 'To',
  apiKey: 'API key',
  system: 'Herald',
  hidden: 'Hidden',
  details: 'Details',
  detailsTitle: 'Audit entry',
  close: 'Close',
  noChanges: 'No field changes',
  retentionLabel: 'Keep audit entries for (days)',
  retentionHelp: `Older entries are removed daily. ${AUDIT_RETENTION_MIN_DAYS} to ${AUDIT_RETENTION_MAX_DAYS} days.`,
} as const;
