import {
  AUDIT_ACTIONS,
  AUDIT_AREAS,
  ROLES,
  type AuditEntryView,
  type AuditValue,
  type Role,
} from '@herald/contract';
import type { SelectOption } from '../../components/form-field';

/** The Action filter's choices: each area ("every credits action"), then its actions. */
export const ACTION_OPTIONS: SelectOption[] = AUDIT_AREAS.flatMap((area) => [
  { value: area, label: `${area}.* (all)` },
  ...AUDIT_ACTIONS.filter((a) => a.startsWith(`${area}.`)).map((a) => ({ value: a, label: a })),
]);

export const entriesOf = (page: { entries: AuditEntryView[] }) => page.entries;

/** The role as a badge knows it, or null (Herald itself, an unknown email). */
export function roleOf(role: string | null): Role | null {
  return ROLES.find((r) => r === role) ?? null;
}

/** A value as a change shows it: text as is, none as "–", lists and others as JSON. */
export function formatValue(v: AuditValue): string {
  if (v === null || v === '') return '–';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** The changed fields as "field: before → after" lines. */
export function changeLines(changes: AuditEntryView['changes']): string[] {
  return Object.entries(changes).map(
    ([field, c]) => `${field}: ${formatValue(c.before)} → ${formatValue(c.after)}`,
  );
}

/** How a target reads in the table: its label, else its id, else its type alone. */
export function targetText(t: AuditEntryView['target']): string {
  return t.label ?? t.id ?? t.type;
}
