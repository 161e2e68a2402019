import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type Dashboard } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, formOf, multipart, type Hierarchy } from '../users/test-fixtures.js';

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
      [h.admin, 6, { creditsSentMonth: 0, activeCampaigns: 0, awaitingApproval: 0 }],
      [h.r1.token, 3, { creditsUsedMonth: 0, activeCampaigns: 0 }],
      [h.s1.token, 1, { creditsUsedMonth: 0, activeCampaigns: 0 }],
      [h.r2.token, 1, { creditsUsedMonth: 0, activeCampaigns: 0 }],
      [h.u1.token, 0, { creditsRemaining: 0, campaignsSent: 0 }],
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

  it("shows each role's credit figure for this month: minted, used, remaining", async () => {
    const post = (token: string, body: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/credits', token, payload: body });
    const credit = (to: string, count: number, over: Record<string, unknown> = {}) => ({
      to,
      creditType: 'Normal Message - domestic',
      count,
      rate: 0.1,
      type: 'Added',
      ...over,
    });
    const ok = async (token: string, body: Record<string, unknown>) =>
      expect((await post(token, body)).statusCode).toBe(201);
    await ok(h.admin, credit(h.r1.user.email, 50));
    await ok(h.admin, credit(h.u3.user.email, 7, { creditType: 'With DP - domestic' }));
    // A burn is not "sent"; a Reseller's transfer out is credits it used.
    await ok(h.admin, credit(h.r1.user.email, 5, { type: 'Removed' }));
    await ok(h.r1.token, credit(h.s1.user.email, 20));
    await ok(h.s1.token, credit(h.u1.user.email, 8));
    await ok(h.r1.token, credit(h.s1.user.email, 3, { type: 'Removed' }));
    await ok(h.admin, credit(h.u1.user.email, 2, { creditType: 'With DP - domestic' }));

    const figure = async (token: string) => (await dashboard(token)).json<Dashboard>();
    expect(await figure(h.admin)).toMatchObject({ creditsSentMonth: 59, creditsUsedMonth: null });
    // R1: 5 burned by the Admin + 20 given to S1 (taking 3 back adds, it does not "use").
    expect(await figure(h.r1.token)).toMatchObject({ creditsUsedMonth: 25 });
    // S1: 8 given to U1 + 3 taken back by R1.
    expect(await figure(h.s1.token)).toMatchObject({ creditsUsedMonth: 11 });
    expect(await figure(h.r2.token)).toMatchObject({ creditsUsedMonth: 0 });
    expect(await figure(h.u1.token)).toMatchObject({
      creditsRemaining: 10,
      creditsUsedMonth: null,
      creditsSentMonth: null,
    });
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
