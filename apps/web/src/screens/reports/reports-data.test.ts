import { describe, expect, it } from 'vitest';
import type { SessionUser, User } from '@herald/contract';
import { balanceRows } from './reports-data';

describe('balanceRows', () => {
  const me = { id: '1', email: 'admin@x.io', name: 'Admin', role: 'Admin' } as SessionUser;
  it('makes one row per user and type, sorted, with names', () => {
    const rows = balanceRows(
      { 'b@x.io': { 'With DP - domestic': 5, 'Normal Message - domestic': 2 }, 'admin@x.io': {} },
      [{ email: 'b@x.io', name: 'Bee' }] as User[],
      me,
    );
    expect(rows.map((r) => [r.name, r.email, r.creditType, r.balance])).toEqual([
      ['Bee', 'b@x.io', 'Normal Message - domestic', 2],
      ['Bee', 'b@x.io', 'With DP - domestic', 5],
    ]);
  });
  it('shows - for an unknown email and nothing without balances', () => {
    expect(balanceRows({ 'z@x.io': { T: 1 } }, [], me)[0]?.name).toBe('-');
    expect(balanceRows(undefined, [], me)).toEqual([]);
  });
});
