import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDIT_TYPES, HistoryReplySchema, type HistoryReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { qs, seed, standardLedger, type People, type Query } from './history.test-fixtures.js';

/**
 * The first page of Transaction History (docs/performance.md, credit ledger history): a scoped caller's balances
 * come in the page's own statement, or apart when the page has no rows; the user list is kept
 * serialized and spliced into the reply (history.routes.ts).
 */

const [NORMAL] = CREDIT_TYPES;
/** Needs escaping in JSON: a quote, a backslash, a control character, non-ASCII. */
const ODD_NAME = 'Zoë "Q" \\ back\tslash';

let t: TestApp;
let h: Hierarchy;
let p: People;
let oddEmail = '';

beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  ({ p } = await standardLedger(t, h));
  const odd = await t.createUser(h.r1.token, { role: 'User', name: 'Odd' });
  oddEmail = odd.user.email;
  await t.db.updateTable('users').set({ name: ODD_NAME }).where('email', '=', oddEmail).execute();
});
afterAll(() => t.close());

async function firstPage(token: string, query: Query = {}) {
  const res = await t.request({
    method: 'GET',
    url: '/api/credits/history',
    token,
    query: qs(query),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}
const balances = async (token: string, query: Query = {}) =>
  (await firstPage(token, query)).json<HistoryReply>().userRemainingCredits;

describe('first page', () => {
  it('is one JSON document with exactly the contract`s fields, the cached list spliced in', async () => {
    // The second reply takes the list from the cache.
    for (let round = 0; round < 2; round++) {
      const res = await firstPage(h.r1.token, { limit: 2 });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const reply = HistoryReplySchema.strict().parse(JSON.parse(res.body));
      expect(Object.keys(reply).sort()).toEqual([
        'allAvailableCreditTypes',
        'allFilterableUsers',
        'nextCursor',
        'transactions',
        'userRemainingCredits',
      ]);
      expect(reply.transactions).toHaveLength(2);
      expect(reply.allFilterableUsers).toContainEqual({ name: ODD_NAME, email: oddEmail });
      for (const u of reply.allFilterableUsers ?? [])
        expect(Object.keys(u)).toEqual(['name', 'email']);
    }
  });

  it('carries the caller`s current balances whichever statement reads the page', async () => {
    const r1 = [{ creditType: NORMAL, balance: 900 }];
    expect(await balances(h.r1.token)).toEqual(r1);
    expect(await balances(h.r1.token, { transactionType: 'Removed' })).toEqual(r1);
    expect(await balances(h.r1.token, { userEmail: p.u1.email })).toEqual(r1);
    expect(await balances(h.r1.token, { startDate: '2024-03-01' })).toEqual(r1);
    expect(await balances(h.s1.token)).toEqual([{ creditType: NORMAL, balance: 50 }]);
    expect(await balances(h.u1.token)).toEqual([{ creditType: NORMAL, balance: 89 }]);
    await seed(t, [
      { to: p.r1, by: p.admin, count: 7 },
      { to: p.r1, by: p.admin, count: 3, creditType: 'With DP - domestic' },
    ]);
    expect(await balances(h.r1.token)).toEqual([
      { creditType: NORMAL, balance: 907 },
      { creditType: 'With DP - domestic', balance: 3 },
    ]);
  });

  it('an empty page still carries them: no rows, or a user outside the scope', async () => {
    const r1 = [
      { creditType: NORMAL, balance: 907 },
      { creditType: 'With DP - domestic', balance: 3 },
    ];
    const none = await firstPage(h.r1.token, { userEmail: oddEmail });
    expect(none.json<HistoryReply>().transactions).toEqual([]);
    expect(none.json<HistoryReply>().userRemainingCredits).toEqual(r1);
    expect(await balances(h.r1.token, { userEmail: p.u3.email })).toEqual(r1);
    const fresh = await t.createUser(h.r2.token, { role: 'User', name: 'Fresh' });
    expect(await balances(fresh.token)).toEqual([]);
  });

  it('an Admin`s carries no balances and every user', async () => {
    const reply = (await firstPage(h.admin)).json<HistoryReply>();
    expect(reply.userRemainingCredits).toEqual([]);
    const count = await t.db
      .selectFrom('users')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(reply.allFilterableUsers).toHaveLength(Number(count.n));
  });
});
