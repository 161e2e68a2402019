import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsSummary, CreditType, User } from '@herald/contract';
import type { LedgerKind } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy, type Member } from '../users/test-fixtures.js';

/**
 * Analytics figures against sums worked out by hand on a known ledger (docs/product.md,
 * Dashboards and analytics: Admin everything, a Reseller its subtree). Hierarchy: Admin;
 * R1 → S1 → U1; R1 → U2; R2 → U3. Entries (N: Normal Message - domestic, D: With DP - domestic),
 * by days before today (UTC), with their ledger kind and who made them:
 *   U1: today +100 N given by S1; today −30 N campaign; 3 days ago −10 D campaign
 *   U2: 20 days ago +50 D minted; −20 D campaign; today −8 D taken back by R1 (R1 +8 D)
 *   S1: 60 days ago −5 N transfer out
 *   R1: 200 days ago +1000 N minted
 *   U3: 3 days ago +70 N given by R2, −40 N campaign, +15 N campaign refund; 100 days ago −7 D
 *       campaign
 *   R2: today −3 N transfer out
 * Used = campaign debits − refunds; Distributed = mints and gifts onto an account of the scope
 * other than its own Reseller, net of credits taken back (migration 0026).
 * Campaigns: U1 today (N), U3 40 days ago (D).
 * Entries of past days land in the rollups (migration 0014's triggers, W = yesterday); today's
 * are read from the ledger itself, so both halves of every figure are exercised.
 */
const N: CreditType = 'Normal Message - domestic';
const D: CreditType = 'With DP - domestic';

let t: TestApp;
let h: Hierarchy;
let admin: Pick<User, 'id' | 'email' | 'name'>;

function at(daysAgo: number) {
  return daysAgo === 0
    ? sql<Date>`now()`
    : sql<Date>`date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
                + interval '12 hours' - make_interval(days => ${daysAgo})`;
}

const ADDED_KINDS: readonly LedgerKind[] = ['mint', 'transfer_in', 'campaign_refund'];

async function entry(
  m: Member,
  kind: LedgerKind,
  creditType: CreditType,
  count: number,
  daysAgo: number,
  by: Pick<User, 'id' | 'email' | 'name'> = m.user,
) {
  await t.ownerDb
    .insertInto('credit_transactions')
    .values({
      group_id: randomUUID(),
      to_user_id: m.user.id,
      to_email: m.user.email,
      to_name: m.user.name,
      by_user_id: by.id,
      by_email: by.email,
      by_name: by.name,
      type: ADDED_KINDS.includes(kind) ? 'Added' : 'Removed',
      credit_type: creditType,
      count,
      kind,
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

const summary = (token: string, range?: string) => get<AnalyticsSummary>(token, '', range);

beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  admin = await t.ownerDb
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('role', '=', 'Admin')
    .executeTakeFirstOrThrow();
  await entry(h.u1, 'transfer_in', N, 100, 0, h.s1.user);
  await entry(h.u1, 'campaign_debit', N, 30, 0);
  await entry(h.u1, 'campaign_debit', D, 10, 3);
  await entry(h.u2, 'mint', D, 50, 20, admin);
  await entry(h.u2, 'campaign_debit', D, 20, 20);
  await entry(h.u2, 'transfer_out', D, 8, 0, h.r1.user);
  await entry(h.r1, 'transfer_in', D, 8, 0);
  await entry(h.s1, 'transfer_out', N, 5, 60);
  await entry(h.r1, 'mint', N, 1000, 200, admin);
  await entry(h.u3, 'transfer_in', N, 70, 3, h.r2.user);
  await entry(h.u3, 'campaign_debit', N, 40, 3);
  await entry(h.u3, 'campaign_refund', N, 15, 3);
  await entry(h.u3, 'campaign_debit', D, 7, 100);
  await entry(h.r2, 'transfer_out', N, 3, 0);
  await campaign(h.u1, N, 0);
  await campaign(h.u3, D, 40);
});
afterAll(() => t.close());

/** Every figure the Admin and R1 see, per range, worked out by hand from the table above. */
async function expectHandSums() {
  const a = h.admin;
  const r1 = h.r1.token;
  const card = (
    users: number,
    added: number,
    used: number,
    distributed: number,
    campaigns: number,
  ) => ({
    users: { total: users },
    credits: { added, used, distributed },
    campaigns: { total: campaigns },
  });
  expect(await summary(a, '7')).toEqual(card(6, 193, 65, 162, 1));
  expect(await summary(a)).toEqual(card(6, 243, 85, 212, 1)); // 30 days by default
  expect(await summary(a, '90')).toEqual(card(6, 243, 85, 212, 2));
  expect(await summary(a, 'all')).toEqual(card(6, 1243, 92, 1212, 2));
  expect(await summary(r1, '7')).toEqual(card(3, 108, 40, 92, 1));
  expect(await summary(r1, '30')).toEqual(card(3, 158, 60, 142, 1));
  expect(await summary(r1, '90')).toEqual(card(3, 158, 60, 142, 1));
  // R1's own 1000 minted by the Admin is received, not distributed.
  expect(await summary(r1, 'all')).toEqual(card(3, 1158, 60, 142, 1));
  expect(await summary(h.r2.token, 'all')).toEqual(card(1, 85, 32, 70, 1));

  const trend = await get<{ date: string; Added: number; Removed: number }[]>(
    a,
    '/credits-trend',
    '7',
  );
  expect(trend.map(({ Added, Removed }) => [Added, Removed])).toEqual([
    [85, 50],
    [108, 41],
  ]);
  expect(trend[1]!.date).toBe(new Date().toISOString().slice(0, 10));
  expect(await get(r1, '/credits-trend', 'all')).toHaveLength(5);

  expect(await get(a, '/credit-types')).toEqual([
    { name: N, value: 55 },
    { name: D, value: 30 },
  ]);
  expect(await get(r1, '/credit-types', '30')).toEqual([
    { name: N, value: 30 },
    { name: D, value: 30 },
  ]);

  // Ranked by campaign spending: R1, R2 and S1 only moved credits, so they do not rank.
  expect(await get(a, '/top-users', '30')).toEqual([
    { name: 'U1', used: 40 },
    { name: 'U3', used: 25 },
    { name: 'U2', used: 20 },
  ]);
  expect(await get(a, '/top-users', 'all')).toEqual([
    { name: 'U1', used: 40 },
    { name: 'U3', used: 32 },
    { name: 'U2', used: 20 },
  ]);
  expect(await get(r1, '/top-users', 'all')).toEqual([
    { name: 'U1', used: 40 },
    { name: 'U2', used: 20 },
  ]);
  expect(await get(r1, '/top-users', '7')).toEqual([{ name: 'U1', used: 40 }]);

  expect(await get(a, '/campaign-types', 'all')).toEqual([
    { name: N, value: 1 },
    { name: D, value: 1 },
  ]);
  expect(await get(a, '/campaign-types', '30')).toEqual([{ name: N, value: 1 }]);
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
      expect(await summary(h.admin, '7')).toMatchObject({
        credits: { added: 193, used: 65, distributed: 162 },
      });
      expect(await summary(h.r1.token, 'all')).toMatchObject({
        credits: { added: 1158, used: 60, distributed: 142 },
      });
      expect(await get(h.admin, '/top-users', '30')).toEqual([
        { name: 'U1', used: 40 },
        { name: 'U3', used: 25 },
        { name: 'U2', used: 20 },
      ]);
      expect(await get(h.admin, '/top-users', 'all')).toHaveLength(3);
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
                AND count IN (70, 40, 15)`.execute(tx);
    });
    expect(await summary(h.admin, '7')).toMatchObject({
      credits: { added: 108, used: 40, distributed: 92 },
    });
    expect(await get(h.admin, '/top-users', 'all')).toContainEqual({ name: 'U3', used: 7 });
    expect(await summary(h.r2.token, 'all')).toMatchObject({
      credits: { added: 0, used: 7, distributed: 0 },
    });
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
