import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type CreditTransaction, type Profile } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { DP, NORMAL, countEntries, creditBody, postCredit } from './credits.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  // Admin mints 50 to R1 and 3 to U3; R1 gives U2 20 and takes 5 back, gives S1 10;
  // S1 gives U1 4. Balances: R1 25, S1 6, U1 4, U2 15, U3 3.
  const steps: [string, Record<string, unknown>][] = [
    [h.admin, creditBody(h.r1.user.email, { count: 50 })],
    [h.admin, creditBody(h.u3.user.email, { count: 3 })],
    [h.r1.token, creditBody(h.u2.user.email, { count: 20 })],
    [h.r1.token, creditBody(h.u2.user.email, { count: 5, type: 'Removed' })],
    [h.r1.token, creditBody(h.s1.user.email, { count: 10 })],
    [h.s1.token, creditBody(h.u1.user.email, { count: 4 })],
  ];
  for (const [token, body] of steps) {
    const res = await postCredit(t, token, body);
    if (res.statusCode !== 201) throw new Error(`setup: ${res.statusCode} ${res.body}`);
  }
});
afterAll(() => t.close());

const list = (token: string | undefined, url = '/api/credits') =>
  t.request({ method: 'GET', url, token });
const entries = (res: { json: <T>() => T }) =>
  res.json<{ transactions: CreditTransaction[] }>().transactions;

describe('GET /api/credits', () => {
  it('gives Admin every entry newest first, `limit` of them', async () => {
    const all = entries(await list(h.admin));
    expect(all.length).toBe(await countEntries(t.db));
    const ids = all.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const two = entries(await list(h.admin, '/api/credits?limit=2&_=1700000000'));
    expect(two).toEqual(all.slice(0, 2));
  });

  it('pages through every entry of each scope with nextCursor', async () => {
    for (const token of [h.admin, h.r1.token, h.s1.token, h.u2.token]) {
      const all = entries(await list(token, '/api/credits?limit=500'));
      const seen: CreditTransaction[] = [];
      let cursor: string | null = null;
      do {
        const q: string = cursor ? `&cursor=${cursor}` : '';
        const res = await list(token, `/api/credits?limit=2${q}`);
        expect(res.statusCode).toBe(200);
        const body = res.json<{ transactions: CreditTransaction[]; nextCursor: string | null }>();
        expect(body.transactions.length).toBeLessThanOrEqual(2);
        seen.push(...body.transactions);
        cursor = body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(all);
    }
    const bad = await list(h.admin, '/api/credits?cursor=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Invalid cursor.' });
  });

  it('answers 400 to a limit outside 1..500', async () => {
    for (const limit of ['0', '501', 'abc', '1.5']) {
      const res = await list(h.admin, `/api/credits?limit=${limit}`);
      expect(res.statusCode, limit).toBe(400);
      expect(res.json()).toEqual({ message: 'Limit must be a whole number from 1 to 500.' });
    }
  });

  it('shows a User only the entries on its own account', async () => {
    const mine = entries(await list(h.u2.token));
    expect(mine.length).toBe(2);
    expect(mine.every((e) => e.to === h.u2.user.email)).toBe(true);
  });

  it("shows a Reseller its subtree's entries and not another Reseller's", async () => {
    const r1Scope = [h.r1, h.s1, h.u1, h.u2].map((m) => m.user.email);
    const seen = entries(await list(h.r1.token));
    expect(seen.length).toBeGreaterThan(0);
    for (const e of seen) expect(r1Scope.includes(e.to) || r1Scope.includes(e.by)).toBe(true);
    expect(seen.some((e) => e.to === h.u1.user.email && e.by === h.s1.user.email)).toBe(true);
    expect(seen.some((e) => e.to === h.u3.user.email)).toBe(false);

    const s1Scope = [h.s1, h.u1].map((m) => m.user.email);
    const s1Seen = entries(await list(h.s1.token));
    for (const e of s1Seen) expect(s1Scope.includes(e.to) || s1Scope.includes(e.by)).toBe(true);
    // R1's own "Transfer to" entry concerns R1 only: above S1's scope.
    expect(s1Seen.some((e) => e.to === h.r1.user.email)).toBe(false);
    expect(s1Seen.some((e) => e.to === h.s1.user.email && e.type === 'Added')).toBe(true);
    const r2Seen = entries(await list(h.r2.token));
    expect(r2Seen.length).toBeGreaterThan(0);
    expect(r2Seen.every((e) => e.to === h.u3.user.email)).toBe(true);
  });

  it('answers 401 without a token', async () => {
    expect((await list(undefined)).statusCode).toBe(401);
  });
});

describe('GET /api/credits/balances', () => {
  const balances = async (token: string) => {
    const res = await list(token, '/api/credits/balances');
    expect(res.statusCode).toBe(200);
    return res.json<Record<string, Record<string, number>>>();
  };

  it("maps email → credit type → balance over the caller's scope", async () => {
    const r1 = await balances(h.r1.token);
    expect(r1).toEqual({
      [h.r1.user.email]: { [NORMAL]: 25 },
      [h.s1.user.email]: { [NORMAL]: 6 },
      [h.u1.user.email]: { [NORMAL]: 4 },
      [h.u2.user.email]: { [NORMAL]: 15 },
    });
    expect(await balances(h.u1.token)).toEqual({ [h.u1.user.email]: { [NORMAL]: 4 } });
    expect(Object.keys(await balances(h.r2.token))).toEqual([h.u3.user.email]);
    const all = await balances(h.admin);
    expect(all[h.u3.user.email]).toEqual({ [NORMAL]: 3 });
    expect(Object.keys(all)).toContain(h.r1.user.email);
  });
});

describe('GET /api/credits/user/:email', () => {
  const userList = (token: string, email: string) =>
    list(token, `/api/credits/user/${encodeURIComponent(email)}`);

  it("lists the entries on one account of the caller's scope", async () => {
    const res = await userList(h.r1.token, h.u1.user.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    const rows = entries(res);
    expect(rows.length).toBe(1);
    expect(rows[0]).toMatchObject({ to: h.u1.user.email, by: h.s1.user.email, count: 4 });
    expect(entries(await userList(h.u1.token, h.u1.user.email))).toEqual(rows);
  });

  it('answers 404 out of scope or unknown', async () => {
    for (const [token, email] of [
      [h.r2.token, h.u1.user.email],
      [h.u1.token, h.u2.user.email],
      [h.s1.token, h.r1.user.email],
      [h.admin, 'nobody@test.local'],
    ] as const) {
      const res = await userList(token, email);
      expect(res.statusCode, email).toBe(404);
      expect(res.json()).toEqual({ message: msg.userNotFound });
    }
  });
});

describe('GET /api/users/profile/:id balances', () => {
  it('shows Total Added, Total Used and Remaining per credit type held', async () => {
    await postCredit(t, h.admin, creditBody(h.u2.user.email, { creditType: DP, count: 7 }));
    const res = await t.request({
      method: 'GET',
      url: `/api/users/profile/${h.u2.user.id}`,
      token: h.r1.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Profile>().balances).toEqual([
      { creditType: NORMAL, totalAdded: 20, totalUsed: 5, remaining: 15 },
      { creditType: DP, totalAdded: 7, totalUsed: 0, remaining: 7 },
    ]);
    const other = await t.request({
      method: 'GET',
      url: `/api/users/profile/${h.u2.user.id}`,
      token: h.r2.token,
    });
    expect(other.statusCode).toBe(404);
  });
});
