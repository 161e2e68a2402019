import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDIT_TYPES, server as msg, type CreditType, type Dashboard } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createCampaign, numbers, setStatus } from '../campaigns/campaign-actions.test-fixtures.js';
import { buildHierarchy, formOf, multipart, type Hierarchy } from '../users/test-fixtures.js';

const N: CreditType = 'Normal Message - domestic';
const D: CreditType = 'With DP - domestic';

/** A per-type figure: every credit type in the contract's order, 0 unless given. */
const perType = (counts: Partial<Record<CreditType, number>> = {}) =>
  CREDIT_TYPES.map((creditType) => ({ creditType, count: counts[creditType] ?? 0 }));

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const dashboard = (token?: string) => t.request({ method: 'GET', url: '/api/dashboard', token });

describe('GET /api/dashboard', () => {
  it("counts the users of the caller's scope, the caller excluded", async () => {
    const totals: [string, number, Partial<Dashboard>][] = [
      [h.admin, 6, { creditsSentMonth: perType(), activeCampaigns: 0, awaitingApproval: 0 }],
      [
        h.r1.token,
        3,
        { creditsUsedMonth: perType(), creditsRemaining: perType(), activeCampaigns: 0 },
      ],
      [
        h.s1.token,
        1,
        { creditsUsedMonth: perType(), creditsRemaining: perType(), activeCampaigns: 0 },
      ],
      [
        h.r2.token,
        1,
        { creditsUsedMonth: perType(), creditsRemaining: perType(), activeCampaigns: 0 },
      ],
      [h.u1.token, 0, { creditsRemaining: perType(), campaignsSent: 0 }],
    ];
    for (const [token, total, credits] of totals) {
      const res = await dashboard(token);
      expect(res.statusCode).toBe(200);
      expect(res.json<Dashboard>()).toEqual({
        totalUsers: total,
        activeCampaigns: null,
        campaignsSent: null,
        creditsSentMonth: null,
        creditsUsedMonth: null,
        creditsRemaining: null,
        avgSuccessRate: null,
        openTickets: 0,
        awaitingApproval: null,
        ...credits,
      });
    }
  });

  it('credit figures per type, scoped per role: minted (Admin), spent by the scope and own balances (resellers), own balances (User)', async () => {
    const post = (token: string, body: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/credits', token, payload: body });
    const credit = (to: string, count: number, over: Record<string, unknown> = {}) => ({
      to,
      creditType: N,
      count,
      rate: 0.1,
      type: 'Added',
      ...over,
    });
    const ok = async (token: string, body: Record<string, unknown>) =>
      expect((await post(token, body)).statusCode).toBe(201);
    await ok(h.admin, credit(h.r1.user.email, 50));
    await ok(h.admin, credit(h.u3.user.email, 7, { creditType: D }));
    await ok(h.admin, credit(h.r1.user.email, 5, { type: 'Removed' })); // a burn is not "sent"
    await ok(h.r1.token, credit(h.s1.user.email, 20));
    await ok(h.s1.token, credit(h.u1.user.email, 8));
    await ok(h.r1.token, credit(h.s1.user.email, 3, { type: 'Removed' }));
    await ok(h.admin, credit(h.u1.user.email, 2, { creditType: D }));
    // Campaigns: U1 spends 3 N, and 2 N refunded when the Admin rejects; U3 spends 4 D.
    await createCampaign(t, h.u1.token, numbers(3));
    const rejected = await createCampaign(t, h.u1.token, numbers(2, '98765433'));
    await setStatus(t, h.admin, rejected, 'Rejected');
    await createCampaign(t, h.u3.token, numbers(4), { creditType: D });

    const figure = async (token: string) => (await dashboard(token)).json<Dashboard>();
    expect(await figure(h.admin)).toMatchObject({
      creditsSentMonth: perType({ [N]: 50, [D]: 9 }),
      creditsUsedMonth: null,
      creditsRemaining: null,
    });
    // R1: its subtree spent 3 N (U1's 5 less the 2 refunded); the 20 it gave S1 are not "used".
    // Its own balance: 50 − 5 burned − 20 given + 3 taken back.
    expect(await figure(h.r1.token)).toMatchObject({
      creditsUsedMonth: perType({ [N]: 3 }),
      creditsRemaining: perType({ [N]: 28 }),
      creditsSentMonth: null,
    });
    // S1: 20 − 8 given − 3 taken back; U1 below it spent 3 N.
    expect(await figure(h.s1.token)).toMatchObject({
      creditsUsedMonth: perType({ [N]: 3 }),
      creditsRemaining: perType({ [N]: 9 }),
    });
    // R2 sees only its subtree: U3's 4 D.
    expect(await figure(h.r2.token)).toMatchObject({
      creditsUsedMonth: perType({ [D]: 4 }),
      creditsRemaining: perType(),
    });
    expect(await figure(h.u1.token)).toMatchObject({
      creditsRemaining: perType({ [N]: 5, [D]: 2 }),
      creditsUsedMonth: null,
      creditsSentMonth: null,
    });
    expect(await figure(h.u3.token)).toMatchObject({ creditsRemaining: perType({ [D]: 3 }) });
  });

  it("Credits Used (Month) counts from the month's first instant (UTC), folded days included", async () => {
    // Two of U3's campaign debits: an hour into this month (a folded day unless today is the
    // 1st) and an hour before it (last month: left out).
    const debit = async (count: number, at: RawBuilder<Date>) =>
      t.ownerDb
        .insertInto('credit_transactions')
        .values({
          group_id: randomUUID(),
          to_user_id: h.u3.user.id,
          to_email: h.u3.user.email,
          to_name: h.u3.user.name,
          by_user_id: h.u3.user.id,
          by_email: h.u3.user.email,
          by_name: h.u3.user.name,
          type: 'Removed',
          credit_type: N,
          count,
          kind: 'campaign_debit',
          created_at: at,
        })
        .execute();
    const monthStart = sql<Date>`date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
    await debit(11, sql<Date>`${monthStart} + interval '1 hour'`);
    await debit(13, sql<Date>`${monthStart} - interval '1 hour'`);
    const r2 = (await dashboard(h.r2.token)).json<Dashboard>();
    expect(r2.creditsUsedMonth).toEqual(perType({ [N]: 11, [D]: 4 }));
  });

  it('answers 401 without a token and 401 at once after the caller is blocked', async () => {
    const anon = await dashboard();
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ message: msg.notLoggedIn });

    expect((await dashboard(h.u2.token)).statusCode).toBe(200);
    const block = await t.request({
      method: 'PUT',
      url: `/api/users/update/${h.u2.user.id}`,
      token: h.r1.token,
      ...multipart({ ...formOf(h.u2.user), status: 'Blocked' }),
    });
    expect(block.statusCode).toBe(200);
    const after = await dashboard(h.u2.token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: msg.sessionEnded });
  });
});
