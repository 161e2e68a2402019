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
    const totals: [string, number][] = [
      [h.admin, 6],
      [h.r1.token, 3],
      [h.s1.token, 1],
      [h.r2.token, 1],
      [h.u1.token, 0],
    ];
    for (const [token, total] of totals) {
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
        openTickets: null,
      });
    }
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
