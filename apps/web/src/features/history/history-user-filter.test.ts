import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@herald/contract';
import { historyUserOptions } from './history-user-filter';

const me = (role: SessionUser['role']) =>
  ({ id: '1', name: 'Rita', email: 'rita@x.test', role }) as SessionUser;
const asha = { name: 'Asha', email: 'asha@x.test' };

describe('historyUserOptions', () => {
  it('puts a manager first, then the search matches, labelled name (email)', () => {
    expect(historyUserOptions(me('Reseller'), '', [asha], [])).toEqual([
      { value: 'rita@x.test', label: 'Rita (rita@x.test)' },
      { value: 'asha@x.test', label: 'Asha (asha@x.test)' },
    ]);
  });

  it('keeps the manager only while it matches what is typed', () => {
    expect(historyUserOptions(me('Admin'), 'ash', [asha], []).map((o) => o.value)).toEqual([
      'asha@x.test',
    ]);
  });

  it('filters what the history offers for a User, which cannot list users', () => {
    const offered = [{ name: 'Rita', email: 'rita@x.test' }];
    expect(historyUserOptions(me('User'), 'RIT', undefined, offered)).toEqual([
      { value: 'rita@x.test', label: 'Rita (rita@x.test)' },
    ]);
    expect(historyUserOptions(me('User'), 'zz', undefined, offered)).toEqual([]);
  });
});
