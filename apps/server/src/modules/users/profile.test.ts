import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_RECENT_CAMPAIGNS, type Profile } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { fund, postCampaign } from '../campaigns/campaigns.test-fixtures.js';
import { buildHierarchy, type Hierarchy } from './test-fixtures.js';

const NORMAL = 'Normal Message - domestic';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u2.user.email, NORMAL, 100);
});
afterAll(() => t.close());

const profile = (token: string, id: string) =>
  t.request({ method: 'GET', url: `/api/users/profile/${id}`, token });

describe('GET /api/users/profile/:id recent campaigns', () => {
  it('is empty for a user without campaigns', async () => {
    const res = await profile(h.admin, h.u1.user.id);
    expect(res.statusCode).toBe(200);
    expect(res.json<Profile>().recentCampaigns).toEqual([]);
  });

  it('lists the owner’s latest campaigns, newest first, capped, with balances after debits', async () => {
    const ids: string[] = [];
    for (let i = 0; i < PROFILE_RECENT_CAMPAIGNS + 2; i++) {
      const to = Array.from({ length: i + 1 }, (_, k) => `98765${String(i).padStart(3, '0')}${k}`);
      const res = await postCampaign(t, h.u2.token, {
        creditType: NORMAL,
        message: `campaign ${i}`,
        to: to.join(','),
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json<{ campaign: { _id: string } }>().campaign._id);
    }
    const res = await profile(h.r1.token, h.u2.user.id);
    expect(res.statusCode).toBe(200);
    const body = res.json<Profile>();
    expect(body.recentCampaigns).toHaveLength(PROFILE_RECENT_CAMPAIGNS);
    expect(body.recentCampaigns.map((c) => c.id)).toEqual(
      ids.slice(-PROFILE_RECENT_CAMPAIGNS).reverse(),
    );
    const newest = body.recentCampaigns[0]!;
    expect(newest).toMatchObject({
      creditType: NORMAL,
      recipientCount: PROFILE_RECENT_CAMPAIGNS + 2,
      status: 'Submitted',
    });
    expect(new Date(newest.createdAt).toISOString()).toBe(newest.createdAt);
    const used = ((PROFILE_RECENT_CAMPAIGNS + 2) * (PROFILE_RECENT_CAMPAIGNS + 3)) / 2;
    expect(body.balances).toEqual([
      { creditType: NORMAL, totalAdded: 100, totalUsed: used, remaining: 100 - used },
    ]);
  });

  it('shows nothing of a user outside the caller’s scope', async () => {
    const res = await profile(h.r2.token, h.u2.user.id);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('campaign');
  });
});

describe('GET /api/users/profile/:id under concurrency', () => {
  it('answers each of many simultaneous reads with its own user and its own caller’s scope', async () => {
    const asks = [
      { token: h.admin, id: h.u1.user.id, status: 200 },
      { token: h.admin, id: h.u2.user.id, status: 200 },
      { token: h.r1.token, id: h.u2.user.id, status: 200 },
      { token: h.r2.token, id: h.u2.user.id, status: 404 },
      { token: h.r2.token, id: h.u3.user.id, status: 200 },
      { token: h.u1.token, id: h.u1.user.id, status: 200 },
      { token: h.u1.token, id: h.u3.user.id, status: 404 },
      { token: h.admin, id: '00000000-0000-4000-8000-000000000000', status: 404 },
    ];
    const many = Array.from({ length: 5 }, () => asks).flat();
    const replies = await Promise.all(many.map((a) => profile(a.token, a.id)));
    replies.forEach((res, i) => {
      const ask = many[i]!;
      expect(res.statusCode, res.body).toBe(ask.status);
      if (ask.status === 200) expect(res.json<Profile>().user.id).toBe(ask.id);
    });
    const u2 = replies[1]!.json<Profile>();
    expect(u2.balances.length).toBeGreaterThan(0);
  });
});
