import { describe, expect, it } from 'vitest';
import { balanceRows } from './reports-data';

describe('balanceRows', () => {
  it('makes one row per user and type, in the order the pages sent them', () => {
    const rows = balanceRows([
      { 'a@x.io': { 'Normal Message - domestic': 2, 'With DP - domestic': 5 }, 'admin@x.io': {} },
      { 'b@x.io': { 'Normal Message - domestic': 7 } },
    ]);
    expect(rows.map((r) => [r.email, r.creditType, r.balance])).toEqual([
      ['a@x.io', 'Normal Message - domestic', 2],
      ['a@x.io', 'With DP - domestic', 5],
      ['b@x.io', 'Normal Message - domestic', 7],
    ]);
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
  });

  it('shows a row once even if two pages repeat it, and nothing without pages', () => {
    const page = { 'z@x.io': { T: 1 } };
    expect(balanceRows([page, page])).toHaveLength(1);
    expect(balanceRows(undefined)).toEqual([]);
    expect(balanceRows([])).toEqual([]);
  });
});
