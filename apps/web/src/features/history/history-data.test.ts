import { describe, expect, it } from 'vitest';
import type { CreditTransaction, HistoryReply } from '@herald/contract';
import { EMPTY_HISTORY_FILTERS } from '../../api/history/get-history';
import {
  countRows,
  creditTypeOptions,
  filtersProblem,
  firstPageLists,
  pageTransactions,
  transactionTypeVariant,
  userOptions,
} from './history-data';

const tx = (id: string): CreditTransaction => ({
  _id: id,
  id,
  to: 'u@x.test',
  toName: 'U',
  by: 'a@x.test',
  byName: 'A',
  type: 'Added',
  creditType: 'With DP - domestic',
  count: 5,
  rate: 1.5,
  totalAmount: 7.5,
  reason: null,
  createdAt: '2025-01-02T03:04:05.000Z',
});

const page = (ids: string[], extra: Partial<HistoryReply> = {}): HistoryReply => ({
  transactions: ids.map(tx),
  nextCursor: null,
  ...extra,
});

describe('filtersProblem', () => {
  it('accepts empty and ordered dates', () => {
    expect(filtersProblem(EMPTY_HISTORY_FILTERS)).toBeNull();
    expect(
      filtersProblem({ ...EMPTY_HISTORY_FILTERS, startDate: '2025-01-01', endDate: '2025-01-01' }),
    ).toBeNull();
  });
  it("refuses a start after the end with the server's message", () => {
    expect(
      filtersProblem({ ...EMPTY_HISTORY_FILTERS, startDate: '2025-02-01', endDate: '2025-01-01' }),
    ).toBe('Start Date must not be after End Date.');
  });
});

describe('pageTransactions and countRows', () => {
  it('treats a non-array transactions field as no rows', () => {
    const bad = { transactions: 'nope', nextCursor: null } as unknown as HistoryReply;
    expect(pageTransactions(bad)).toEqual([]);
    expect(pageTransactions(undefined)).toEqual([]);
    expect(countRows([page(['1', '2']), bad, page(['3'])])).toBe(3);
  });
  it('keeps the page array identity (memoized rows)', () => {
    const p = page(['1']);
    expect(pageTransactions(p)).toBe(p.transactions);
    expect(pageTransactions(undefined)).toBe(pageTransactions(undefined));
  });
});

describe('firstPageLists', () => {
  it('reads the lists from the first page, empty when absent or malformed', () => {
    const first = page([], {
      allFilterableUsers: [{ name: 'U', email: 'u@x.test' }],
      allAvailableCreditTypes: ['With DP - domestic'],
      userRemainingCredits: [{ creditType: 'With DP - domestic', balance: 3 }],
    });
    expect(firstPageLists(first)).toEqual({
      users: [{ name: 'U', email: 'u@x.test' }],
      creditTypes: ['With DP - domestic'],
      remaining: [{ creditType: 'With DP - domestic', balance: 3 }],
    });
    expect(firstPageLists(undefined)).toEqual({ users: [], creditTypes: [], remaining: [] });
    const odd = { ...page([]), allFilterableUsers: {} } as unknown as HistoryReply;
    expect(firstPageLists(odd).users).toEqual([]);
  });
});

describe('select options', () => {
  const users = [{ name: 'Asha', email: 'asha@x.test' }];
  it("labels users 'Name (email)' with the email as value", () => {
    expect(userOptions(users, '')).toEqual([{ value: 'asha@x.test', label: 'Asha (asha@x.test)' }]);
  });
  it('keeps a chosen value that is missing from the list', () => {
    expect(userOptions([], 'b@x.test')).toEqual([{ value: 'b@x.test', label: 'b@x.test' }]);
    expect(creditTypeOptions(['A'], 'B')).toEqual(['B', 'A']);
    expect(creditTypeOptions(['A'], 'A')).toEqual(['A']);
    expect(creditTypeOptions(['A'], '')).toEqual(['A']);
  });
});

describe('transactionTypeVariant', () => {
  it('is green for Added and red for Removed', () => {
    expect(transactionTypeVariant('Added')).toBe('success');
    expect(transactionTypeVariant('Removed')).toBe('danger');
  });
});
