import { describe, expect, it } from 'vitest';
import type { REPORT_FILTERS } from './report-filters.js';
import { matchesReportFilter } from './report-filters.js';

describe('report filters', () => {
  const statuses = ['Delivered', ' read ', 'Failed', 'Sent', 'Not sent', 'DND'];
  const members = (f: (typeof REPORT_FILTERS)[number]) =>
    statuses.filter((s) => matchesReportFilter(s, f));

  it('counts read as delivered, and failed as everything not delivered', () => {
    expect(members('all')).toEqual(statuses);
    expect(members('delivered')).toEqual(['Delivered', ' read ']);
    expect(members('failed')).toEqual(['Failed', 'Sent', 'Not sent', 'DND']);
    expect(members('read')).toEqual([' read ']);
    expect(members('not_read')).toEqual(['Delivered', 'Failed', 'Sent', 'Not sent', 'DND']);
  });
});
