import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreditType } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy, type Member } from '../users/test-fixtures.js';

/**
 * Analytics figures against sums worked out by hand on a known ledger (docs/product.md,
 * Decisions: Admin everything, a Reseller its subtree). Hierarchy: Admin; R1 → S1 → U1; R1 → U2; R2 → U3. Entries (N: Normal
 * Message - domestic, D: With DP - domestic), by days before today (UTC):
 *   U1: today Added 100 N, Removed 30 N; 3 days ago Removed 10 D
 *   U2: 20 days ago Added 50 D, Removed 20 D
 *   S1: 60 days ago Removed 5 N
 *   R1: 200 days ago Added 1000 N
 *   U3: 3 days ago Added 70 N, Removed 40 N; 100 days ago Removed 7 D
 *   R2: today Removed 3 N
 * Campaigns: U1 today (N), U3 40 days ago (D).
 * Entries of past days land in the rollups (migration 0014's triggers, W = yesterday); today's
 * are read from the ledger itself, so both halves of every figure are exercised.
 */
const N: CreditType = 'Normal Message - domestic';
const D: CreditType = 'With DP - domestic';

let t: TestApp;
let h: Hierarchy;

function at(daysAgo: number) {
  return daysAgo === 0
    ? sql<Date>`now()`
    : sql<Date>`date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
                + interval '12 hours' - make_interval(days => ${daysAgo})`;
}

async function entry(
  m: Member,
  type: 'Added' | 'Removed',
  creditType: CreditType,
  count: number,
  daysAgo: number,
) {
  await t.ownerDb
    .insertInto('credit_transactions')
    .values({
      group_id: randomUUID(),
      to_user_id: m.user.id,
      to_email: m.user.email,
      to_name: m.user.name,
      by_user_id: m.user.id,
      by_email: m.user.email,
      by_name: m.user.name,
      type,
      credit_type: creditType,
      count,
      kind: type === 'Added' ? 'mint' : 'burn',
      created_at: at(daysAgo),
    })
    .execute();
}

async function campaign(m: Member, creditType: CreditType, daysAgo: number) {
  await t.ownerDb
    .insertInto('campaigns')
    .values({
      user_id: m.user.id,
      created_by: m.user.id,
      credit_type: creditType,
      message: 'Hello',
      recipient_count: 1,
      charged_count: 0,
      created_at: at(daysAgo),
    })
    .execute();
}

async function get<T>(token: string, path: string, range?: string): Promise<T> {
  const url = `/api/analytics${path}${range === undefined ? '' : `?range=${range}`}`;
  const res = await t.request({ method: 'GET', url, token });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json<T>();
}

const summary = (token: string, range?: string) => get<unknown>(token, '', range);

beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await entry(h.u1, 'Added', N, 100, 0);
  await entry(h.u1, 'Removed', N, 30, 0);
  await entry(h.u1, 'Removed', D, 10, 3);
  await entry(h.u2, 'Added', D, 50, 20);
  await entry(h.u2, 'Removed', D, 20, 20);
  await entry(h.s1, 'Removed', N, 5, 60);
  await entry(h.r1, 'Added', N, 1000, 200);
  await entry(h.u3, 'Added', N, 70, 3);
  await entry(h.u3, 'Removed', N, 40, 3);
  await entry(h.u3, 'Removed', D, 7, 100);
  await entry(h.r2, 'Removed', N, 3, 0);
  await campaign(h.u1, N, 0);
  await campaign(h.u3, D, 40);
});
afterAll(() => t.close());

/** Every figure the Admin and R1 see, per range, worked out by hand from the table above. */
async function expectHandSums() {
  const admin = h.admin;
  const r1 = h.r1.token;
  const card = (users: number, added: number, removed: number, campaigns: number) => ({
    users: { total: users },
    credits: { added, removed },
    campaigns: { total: campaigns },
  });
  expect(await summary(admin, '7')).toEqual(card(6, 170, 83, 1));
  expect(await summary(admin)).toEqual(card(6, 220, 103, 1)); // 30 days by default
  expect(await summary(admin, '90')).toEqual(card(6, 220, 108, 2));
  expect(await summary(admin, 'all')).toEqual(card(6, 1220, 115, 2));
  expect(await summary(r1, '7')).toEqual(card(3, 100, 40, 1));
  expect(await summary(r1, '30')).toEqual(card(3, 150, 60, 1));
  expect(await summary(r1, '90')).toEqual(card(3, 150, 65, 1));
  expect(await summary(r1, 'all')).toEqual(card(3, 1150, 65, 1));
  expect(await summary(h.r2.token, 'all')).toEqual(card(1, 70, 50, 1));

  const trend = await get<{ date: string; Added: number; Removed: number }[]>(
    admin,
    '/credits-trend',
    '7',
  );
  expect(trend.map(({ Added, Removed }) => [Added, Removed])).toEqual([
    [70, 50],
    [100, 33],
  ]);
  expect(trend[1]!.date).toBe(new Date().toISOString().slice(0, 10));
  expect(await get(r1, '/credits-trend', 'all')).toHaveLength(5);

  expect(await get(admin, '/credit-types')).toEqual([
    { name: N, value: 73 },
    { name: D, value: 30 },
  ]);
  expect(await get(r1, '/credit-types', '30')).toEqual([
    { name: N, value: 30 },
    { name: D, value: 30 },
  ]);

  expect(await get(admin, '/top-users', '30')).toEqual([
    { name: 'U1', used: 40 },
    { name: 'U3', used: 40 },
    { name: 'U2', used: 20 },
    { name: 'R2', used: 3 },
  ]);
  expect(await get(admin, '/top-users', 'all')).toEqual([
    { name: 'U3', used: 47 },
    { name: 'U1', used: 40 },
    { name: 'U2', used: 20 },
    { name: 'S1', used: 5 },
    { name: 'R2', used: 3 },
  ]);
  expect(await get(r1, '/top-users', 'all')).toEqual([
    { name: 'U1', used: 40 },
    { name: 'U2', used: 20 },
    { name: 'S1', used: 5 },
  ]);
  expect(await get(r1, '/top-users', '7')).toEqual([{ name: 'U1', used: 40 }]);

  expect(await get(admin, '/campaign-types', 'all')).toEqual([
    { name: N, value: 1 },
    { name: D, value: 1 },
  ]);
  expect(await get(admin, '/campaign-types', '30')).toEqual([{ name: N, value: 1 }]);
  expect(await get(r1, '/campaign-types', 'all')).toEqual([{ name: N, value: 1 }]);
}

describe('GET /api/analytics/*: figures computed in SQL, per scope and range', () => {
  it('match the hand-computed sums: Admin everything, a Reseller its subtree', async () => {
    await expectHandSums();
  });

  it('the same figures when the rollups are rebuilt from nothing by the fold', async () => {
    await sql`DELETE FROM analytics_daily`.execute(t.ownerDb);
    await sql`DELETE FROM analytics_user_totals`.execute(t.ownerDb);
    await sql`UPDATE analytics_state SET folded_through = '-infinity'`.execute(t.ownerDb);
    await expectHandSums();
    const rows = await sql<{ n: string }>`SELECT count(*) AS n FROM analytics_daily`.execute(
      t.ownerDb,
    );
    expect(Number(rows.rows[0]!.n)).toBeGreaterThan(0);
  });

  it('while a ledger write holds the fold off, the reads take the unfolded days from the ledger', async () => {
    await sql`DELETE FROM analytics_daily`.execute(t.ownerDb);
    await sql`DELETE FROM analytics_user_totals`.execute(t.ownerDb);
    await sql`UPDATE analytics_state SET folded_through = '-infinity'`.execute(t.ownerDb);
    // Folded up to 10 days ago: U2's entries and older in the rollups, the rest not.
    await sql`SELECT analytics_fold((now() AT TIME ZONE 'UTC')::date - 10)`.execute(t.ownerDb);
    await t.ownerDb.transaction().execute(async (tx) => {
      await sql`LOCK TABLE credit_transactions IN ROW EXCLUSIVE MODE`.execute(tx);
      expect(await summary(h.admin, '7')).toMatchObject({ credits: { added: 170, removed: 83 } });
      expect(await summary(h.r1.token, 'all')).toMatchObject({
        credits: { added: 1150, removed: 65 },
      });
      expect(await get(h.admin, '/top-users', '30')).toEqual([
        { name: 'U1', used: 40 },
        { name: 'U3', used: 40 },
        { name: 'U2', used: 20 },
        { name: 'R2', used: 3 },
      ]);
      expect(await get(h.admin, '/top-users', 'all')).toHaveLength(5);
    });
    const w = await sql<{
      w: string;
    }>`SELECT folded_through::text AS w FROM analytics_state`.execute(t.ownerDb);
    // The fold gave up on its lock each time; the next read, unhindered, folds to yesterday.
    expect(w.rows[0]!.w < new Date(Date.now() - 9 * 86_400_000).toISOString().slice(0, 10)).toBe(
      true,
    );
    await expectHandSums();
  }, 30_000);

  it('a deleted folded entry leaves the figures (the data cleanup)', async () => {
    await t.ownerDb.transaction().execute(async (tx) => {
      await sql`SELECT set_config('herald.ledger_cleanup', 'on', true)`.execute(tx);
      await sql`DELETE FROM credit_transactions WHERE to_user_id = ${h.u3.user.id}
                AND count IN (70, 40)`.execute(tx);
    });
    expect(await summary(h.admin, '7')).toMatchObject({ credits: { added: 100, removed: 43 } });
    expect(await get(h.admin, '/top-users', 'all')).toContainEqual({ name: 'U3', used: 7 });
    expect(await summary(h.r2.token, 'all')).toMatchObject({ credits: { added: 0, removed: 10 } });
  });

  it('Sub-Reseller and User: 403 on every route', async () => {
    for (const who of [h.s1, h.u1]) {
      for (const path of ['', '/credits-trend', '/credit-types', '/campaign-types', '/top-users']) {
        const res = await t.request({
          method: 'GET',
          url: `/api/analytics${path}`,
          token: who.token,
        });
        expect(res.statusCode, path).toBe(403);
        expect(res.json()).toHaveProperty('message');
      }
    }
  });

  it('a range other than 7, 30, 90 or all: 400', async () => {
    const res = await t.request({ method: 'GET', url: '/api/analytics?range=14', token: h.admin });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('message');
  });
});
