import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '@herald/contract';
import { ACTION_OPTIONS, changeLines, roleOf, targetText } from './audit-data';
import { auditParams, EMPTY_AUDIT_FILTERS, localDayInstant } from '../../api/audit/get-audit-log';

describe('the Audit Log screen data', () => {
  it('offers every action once, each area before its actions', () => {
    const values = ACTION_OPTIONS.map((o) => o.value);
    expect(values.filter((v) => v.includes('.')).sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(values.indexOf('credits')).toBe(values.indexOf('credits.add') - 1);
  });

  it('shows changes as before → after, empty values as a dash', () => {
    expect(
      changeLines({
        status: { before: 'Active', after: 'Blocked' },
        note: { before: null, after: 'x' },
        ids: { before: [], after: ['a'] },
      }),
    ).toEqual(['status: Active → Blocked', 'note: – → x', 'ids: [] → ["a"]']);
  });

  it('names a target by label, id or type, and knows only real roles', () => {
    expect(targetText({ type: 'routing', id: null, label: null })).toBe('routing');
    expect(targetText({ type: 'user', id: 'u1', label: null })).toBe('u1');
    expect(roleOf('Reseller')).toBe('Reseller');
    expect(roleOf(null)).toBeNull();
    expect(roleOf('Root')).toBeNull();
  });

  it('sends local days as instants, the To day included, and leaves out empty filters', () => {
    const params = auditParams({
      ...EMPTY_AUDIT_FILTERS,
      fromDate: '2026-03-01',
      toDate: '2026-03-01',
      action: 'credits',
      actor: '  ',
    });
    expect(params).toEqual({
      from: new Date(2026, 2, 1).toISOString(),
      to: new Date(2026, 2, 2).toISOString(),
      action: 'credits',
    });
    expect(localDayInstant('2026-12-31', 1)).toBe(new Date(2027, 0, 1).toISOString());
  });
});
