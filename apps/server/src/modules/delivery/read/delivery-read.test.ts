import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  server as msg,
  type CampaignDetail,
  type CampaignList,
  type CreateCampaignReply,
  type DeliveryBreakdown,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../../users/test-fixtures.js';
import { fund, postCampaign } from '../../campaigns/campaigns.test-fixtures.js';

/**
 * GET /api/campaigns/{id}/delivery and the `delivery` totals on campaign replies. The engine's
 * writes are set here by hand (its own tests drive it); these tests read them back.
 */

let t: TestApp;
let h: Hierarchy;
let manual: string;
let sending: string;
const PHONES = ['9876543210', '9876543211', '9876543212', '9876543213', '9876543214', '9876543215'];

async function create(message: string): Promise<string> {
  const res = await postCampaign(t, h.u1.token, {
    creditType: 'Normal Message - domestic',
    message,
    to: PHONES.join(','),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreateCampaignReply>().campaign._id;
}

beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, 'Normal Message - domestic', 20);
  manual = await create('Fulfilled by hand');
  sending = await create('Sent by the engine');
  // As the engine leaves it mid-way: one unclaimed, one in flight, one delivered, one read,
  // two failed with one provider error and one with another (counters match the rows).
  const states: [string, string | null, string | null, string | null][] = [
    [PHONES[0]!, null, null, null],
    [PHONES[1]!, 'sending', null, null],
    [PHONES[2]!, 'delivered', null, null],
    [PHONES[3]!, 'read', null, null],
    [PHONES[4]!, 'failed', '131026', 'Message undeliverable'],
    [PHONES[5]!, 'failed', '131026', 'Message undeliverable'],
  ];
  for (const [phone, state, code, text] of states) {
    await sql`UPDATE campaign_recipients SET state = ${state}, error_code = ${code},
      error_text = ${text} WHERE campaign_id = ${sending}::uuid AND phone = ${phone}`.execute(t.db);
  }
  await sql`UPDATE campaign_recipients SET error_code = '470', error_text = 'Re-engagement'
    WHERE campaign_id = ${sending}::uuid AND phone = ${PHONES[5]!}`.execute(t.db);
  await sql`UPDATE campaigns SET status = 'Processing', dispatch_state = 'paused',
      simulated = true, sent_count = 0, delivered_count = 1, read_count = 1, failed_count = 2
    WHERE id = ${sending}::uuid`.execute(t.db);
});
afterAll(() => t.close());

const breakdown = (id: string, token: string) =>
  t.request({ method: 'GET', url: `/api/campaigns/${id}/delivery`, token });

describe('GET /api/campaigns/:id/delivery', () => {
  it('counts recipients by state (unclaimed as unsent) and groups failures by code and text', async () => {
    const res = await breakdown(sending, h.u1.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<DeliveryBreakdown>()).toEqual({
      progress: {
        dispatchState: 'paused',
        simulated: true,
        total: 6,
        sent: 2,
        delivered: 2,
        read: 1,
        failed: 2,
        refunded: 0,
        resumeAt: null,
        quietHold: false,
      },
      states: [
        { state: 'unsent', count: 1 },
        { state: 'sending', count: 1 },
        { state: 'delivered', count: 1 },
        { state: 'read', count: 1 },
        { state: 'failed', count: 2 },
      ],
      errors: [
        { code: '131026', text: 'Message undeliverable', count: 1 },
        { code: '470', text: 'Re-engagement', count: 1 },
      ],
    });
  });

  it('has nothing to break down for a campaign the engine never touched', async () => {
    const res = await breakdown(manual, h.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<DeliveryBreakdown>()).toMatchObject({
      progress: { dispatchState: null, total: 6, sent: 0 },
      states: [],
      errors: [],
    });
  });

  it('follows the campaign scope: 404 outside it, 401 without a token', async () => {
    for (const token of [h.admin, h.r1.token, h.s1.token]) {
      expect((await breakdown(sending, token)).statusCode).toBe(200);
    }
    for (const token of [h.u2.token, h.r2.token, h.u3.token]) {
      const res = await breakdown(sending, token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: msg.campaignNotFound });
    }
    const unknown = await breakdown('00000000-0000-4000-8000-000000000000', h.admin);
    expect(unknown.statusCode).toBe(404);
    const anon = await t.request({ method: 'GET', url: `/api/campaigns/${sending}/delivery` });
    expect(anon.statusCode).toBe(401);
  });
});

describe('campaign replies', () => {
  it("carry the engine's totals from the row, or null when it never touched the campaign", async () => {
    const list = await t.request({ method: 'GET', url: '/api/campaigns', token: h.r1.token });
    const byId = new Map(list.json<CampaignList>().campaigns.map((c) => [c._id, c]));
    expect(byId.get(manual)!.delivery).toBeNull();
    expect(byId.get(sending)!.delivery).toMatchObject({
      dispatchState: 'paused',
      simulated: true,
      sent: 2,
      delivered: 2,
      failed: 2,
    });
    const detail = await t.request({
      method: 'GET',
      url: `/api/campaigns/${sending}`,
      token: h.u1.token,
    });
    expect(detail.json<CampaignDetail>().delivery?.total).toBe(6);
  });
});
