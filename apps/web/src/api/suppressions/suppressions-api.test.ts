import { describe, expect, it } from 'vitest';
import { SUPPRESSIONS_PAGE_DEFAULT } from '@herald/contract';
import { checkBody, keysKey } from './check-suppressions';
import { suppressionsQuery } from './get-suppressions';

describe('suppressionsQuery', () => {
  it('leaves blank filters out and sends the page size and cursor', () => {
    expect(suppressionsQuery({ search: '  ', ownerId: '' })).toEqual({
      search: undefined,
      ownerId: undefined,
      limit: SUPPRESSIONS_PAGE_DEFAULT,
      cursor: undefined,
    });
    expect(suppressionsQuery({ search: ' 987 ', ownerId: 'u1' }, 'c1')).toEqual({
      search: '987',
      ownerId: 'u1',
      limit: SUPPRESSIONS_PAGE_DEFAULT,
      cursor: 'c1',
    });
  });
});

describe('keysKey', () => {
  it('tells lists apart by their numbers, not only their count', () => {
    const a = keysKey(new Float64Array([1e15 + 1, 2e15 + 7]));
    expect(a).toBe(keysKey(new Float64Array([1e15 + 1, 2e15 + 7])));
    expect(a).not.toBe(keysKey(new Float64Array([1e15 + 1, 2e15 + 8])));
    expect(a.startsWith('2:')).toBe(true);
    expect(keysKey(new Float64Array(0))).toBe('0:811c9dc5');
  });
});

describe('checkBody', () => {
  it('writes the numbers’ bytes into the JSON body, with the owner when one is picked', async () => {
    const digits = new TextEncoder().encode('9876543210,09876543210');
    expect(JSON.parse(await checkBody(digits, undefined).text())).toEqual({
      numbers: '9876543210,09876543210',
    });
    expect(JSON.parse(await checkBody(digits, 'a"b@x.in').text())).toEqual({
      numbers: '9876543210,09876543210',
      userEmail: 'a"b@x.in',
    });
  });
});
