import { describe, expect, it } from 'vitest';
import { USERS_PAGE_DEFAULT } from '@herald/contract';
import { usersQuery } from './get-users';

describe('usersQuery', () => {
  it('sends the default page size and leaves a blank search and no cursor out', () => {
    expect(usersQuery({ search: '   ' }, undefined)).toEqual({
      search: undefined,
      role: undefined,
      limit: USERS_PAGE_DEFAULT,
      cursor: undefined,
    });
  });

  it('trims the search and passes the cursor and limit', () => {
    expect(usersQuery({ search: ' asha ', role: 'Reseller', limit: 20 }, 'c1')).toEqual({
      search: 'asha',
      role: 'Reseller',
      limit: 20,
      cursor: 'c1',
    });
  });
});
