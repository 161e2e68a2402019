import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CampaignDetail,
  CampaignList,
  CreateCampaignReply,
  CreditType,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { file, fund, png, postCampaign } from './campaigns.test-fixtures.js';

const NORMAL: CreditType = 'Normal Message - domestic';

let t: TestApp;
let h: Hierarchy;
/** Campaign ids by owner name. */
const ids: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  for (const [name, m] of [
    ['u1', h.u1],
    ['u2', h.u2],
    ['u3', h.u3],
    ['r1', h.r1],
  ] as const) {
    await fund(t, h.admin, m.user.email, NORMAL, 10);
    const res = await postCampaign(
      t,
      m.token,
      { creditType: NORMAL, message: `From ${name}`, to: '9876543210, 9876543211' },
      name === 'u1' ? [file('images', png(10, 10), 'pic.png')] : [],
    );
    expect(res.statusCode, res.body).toBe(201);
    ids[name] = res.json<CreateCampaignReply>().campaign._id;
  }
});
afterAll(() => t.close());

async function list(token: string, url = '/api/campaigns') {
  const res = await t.request({ method: 'GET', url, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CampaignList>();
}
const idsOf = (l: CampaignList) => l.campaigns.map((c) => c._id).sort();
const expected = (...names: string[]) => names.map((n) => ids[n]).sort();

describe('GET /api/campaigns', () => {
  it('is scoped: Admin all, managers their subtree and own, User own', async () => {
    expect(idsOf(await list(h.admin))).toEqual(expected('u1', 'u2', 'u3', 'r1'));
    expect(idsOf(await list(h.r1.token))).toEqual(expected('u1', 'u2', 'r1'));
    expect(idsOf(await list(h.s1.token))).toEqual(expected('u1'));
    expect(idsOf(await list(h.r2.token))).toEqual(expected('u3'));
    expect(idsOf(await list(h.u2.token))).toEqual(expected('u2'));
  });

  it('lists newest first with recipientCount and no recipients', async () => {
    const { campaigns } = await list(h.admin);
    expect(campaigns[0]).toMatchObject({ _id: ids.r1, recipientCount: 2, status: 'Submitted' });
    expect(campaigns[0]).not.toHaveProperty('to');
    const times = campaigns.map((c) => c.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by user, status and dates, and pages by cursor', async () => {
    expect(idsOf(await list(h.admin, `/api/campaigns?userEmail=${h.u2.user.email}`))).toEqual(
      expected('u2'),
    );
    expect((await list(h.admin, '/api/campaigns?status=Completed')).campaigns).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (await list(h.admin, `/api/campaigns?from=${today}&to=${today}`)).campaigns,
    ).toHaveLength(4);
    expect((await list(h.admin, '/api/campaigns?to=2000-01-01')).campaigns).toEqual([]);
    // Days are the viewer's: 14 hours ahead of UTC (tzOffset -840), "today" in UTC may already
    // be over, and the UTC day 2 days on holds nothing made now.
    const now = new Date();
    const localAhead = new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
    expect(
      (await list(h.admin, `/api/campaigns?from=${localAhead}&to=${localAhead}&tzOffset=-840`))
        .campaigns,
    ).toHaveLength(4);
    const later = new Date(now.getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect((await list(h.admin, `/api/campaigns?from=${later}&tzOffset=-840`)).campaigns).toEqual(
      [],
    );
    const badTz = await t.request({
      method: 'GET',
      url: '/api/campaigns?tzOffset=9999',
      token: h.admin,
    });
    expect(badTz.statusCode).toBe(400);
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: CampaignList = await list(h.admin, `/api/campaigns?limit=3&cursor=${cursor}`);
      seen.push(...page.campaigns.map((c) => c._id));
      cursor = page.nextCursor;
    }
    expect(seen.sort()).toEqual(expected('u1', 'u2', 'u3', 'r1'));
    const bad = await t.request({ method: 'GET', url: '/api/campaigns?limit=0', token: h.admin });
    expect(bad.statusCode).toBe(400);
  });

  it('/user/:email is scoped: 404 outside', async () => {
    expect(idsOf(await list(h.r1.token, `/api/campaigns/user/${h.u1.user.email}`))).toEqual(
      expected('u1'),
    );
    for (const [token, email] of [
      [h.r2.token, h.u1.user.email],
      [h.u1.token, h.u2.user.email],
      [h.admin, 'nobody@test.local'],
    ] as const) {
      const res = await t.request({ method: 'GET', url: `/api/campaigns/user/${email}`, token });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('GET /api/campaigns/:id', () => {
  it('shows the first recipients and the files with their names', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/campaigns/${ids.u1}`,
      token: h.s1.token,
    });
    expect(res.statusCode).toBe(200);
    const c = res.json<CampaignDetail>();
    expect(c.recipients).toEqual(['9876543210', '9876543211']);
    expect(c.recipientsNextCursor).toBeNull();
    expect(c.files).toMatchObject([{ kind: 'image', name: 'pic.png', mime: 'image/png' }]);
  });

  it('answers 404 outside scope, for unknown ids and for malformed ids', async () => {
    for (const [token, url] of [
      [h.r2.token, `/api/campaigns/${ids.u1}`],
      [h.u2.token, `/api/campaigns/${ids.u1}`],
      [h.u1.token, `/api/campaigns/${ids.r1}`],
      [h.admin, '/api/campaigns/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await t.request({ method: 'GET', url, token });
      expect(res.statusCode).toBe(404);
    }
    const bad = await t.request({ method: 'GET', url: '/api/campaigns/xyz', token: h.admin });
    expect([400, 404]).toContain(bad.statusCode);
  });
});
