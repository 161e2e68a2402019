import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsSummary, CreditType, NameValueRow, TopUserRow } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createCampaign, numbers, setStatus } from '../campaigns/campaign-actions.test-fixtures.js';
import { creditBody, postCredit } from '../credits/credits.test-fixtures.js';

/**
 * Credits Used against Credits Distributed through the real routes (docs/product.md, Dashboards
 * and analytics): the ledger entries are the ones the credits and campaigns services write.
 * Admin → R3 100; R3 → U4 60, then R3 takes 4 back; U4 sends 5 and 3, and the 3 are refunded
 * when the Admin rejects that campaign.
 */
const N: CreditType = 'Normal Message - domestic';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

async function get<T>(token: string, path: string): Promise<T> {
  const res = await t.request({ method: 'GET', url: `/api/analytics${path}?range=all`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}

describe('GET /api/analytics: spent apart from distributed', () => {
  it('a Reseller who only gives credits has 0 used and N distributed; a User who sends has used = spent − refunds', async () => {
    const r3 = await t.createUser(admin, { role: 'Reseller', name: 'R3' });
    const u4 = await t.createUser(r3.token, { role: 'User', name: 'U4' });
    const move = async (token: string, to: string, count: number, type = 'Added') => {
      const res = await postCredit(t, token, creditBody(to, { count, type }));
      expect(res.statusCode, res.body).toBe(201);
    };
    await move(admin, r3.user.email, 100);
    await move(r3.token, u4.user.email, 60);
    await move(r3.token, u4.user.email, 4, 'Removed'); // taken back: distributed is net of it

    // R3's 100 came from above: received, not distributed by it.
    expect(await get<AnalyticsSummary>(r3.token, '')).toMatchObject({
      credits: { used: 0, distributed: 56 },
    });
    expect(await get<TopUserRow[]>(admin, '/top-users')).toEqual([]);

    await createCampaign(t, u4.token, numbers(5));
    const rejected = await createCampaign(t, u4.token, numbers(3, '98765433'));
    await setStatus(t, admin, rejected, 'Rejected');

    expect(await get<AnalyticsSummary>(r3.token, '')).toMatchObject({
      credits: { used: 5, distributed: 56 },
      campaigns: { total: 2 },
    });
    // The Admin: 100 minted + 60 given − 4 taken back; Added counts every entry onto an account
    // (100 + 60 + 4 returned to R3 + 3 refunded).
    expect(await get<AnalyticsSummary>(admin, '')).toEqual({
      users: { total: 2 },
      credits: { added: 167, used: 5, distributed: 156 },
      campaigns: { total: 2 },
    });
    expect(await get<TopUserRow[]>(r3.token, '/top-users')).toEqual([{ name: 'U4', used: 5 }]);
    expect(await get<TopUserRow[]>(admin, '/top-users')).toEqual([{ name: 'U4', used: 5 }]);
    expect(await get<NameValueRow[]>(r3.token, '/credit-types')).toEqual([{ name: N, value: 5 }]);
  });
});
