import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDIT_TYPES, type CampaignStatus, type Dashboard } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { openTicket, put } from '../tickets/tickets.test-fixtures.js';
import { buildHierarchy, type Hierarchy, type Member } from '../users/test-fixtures.js';

/**
 * Every dashboard card is live (docs/product.md, Dashboards and analytics): active campaigns, campaigns sent, the
 * success rate and open tickets, per role, against figures counted by hand below.
 * Hierarchy: Admin; R1 → S1 → U1; R1 → U2; R2 → U3.
 */
let t: TestApp;
let h: Hierarchy;

async function campaign(owner: Member, status: CampaignStatus, report?: [number, number]) {
  await t.ownerDb
    .insertInto('campaigns')
    .values({
      user_id: owner.user.id,
      created_by: owner.user.id,
      credit_type: 'Normal Message - domestic',
      message: 'Hello',
      status,
      recipient_count: 1,
      charged_count: 0,
      report_count: report?.[0] ?? 0,
      report_delivered: report?.[1] ?? 0,
    })
    .execute();
}

beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  // U1: active Submitted, Processing; sent Completed (8 of 10 delivered), Report Generated
  // (1 of 4); neither Rejected nor Cancellation Requested is active or sent.
  await campaign(h.u1, 'Submitted');
  await campaign(h.u1, 'Processing');
  await campaign(h.u1, 'Completed', [10, 8]);
  await campaign(h.u1, 'Report Generated', [4, 1]);
  await campaign(h.u1, 'Rejected');
  await campaign(h.u1, 'Cancellation Requested');
  // U2: active Approved, Pending Approval; sent Report Generated (5 of 5).
  await campaign(h.u2, 'Approved');
  await campaign(h.u2, 'Pending Approval');
  await campaign(h.u2, 'Report Generated', [5, 5]);
  // S1's own: active Submitted. U3: active Processing; Cancelled. R2's own: Completed, no report.
  await campaign(h.s1, 'Submitted');
  await campaign(h.u3, 'Processing');
  await campaign(h.u3, 'Cancelled');
  await campaign(h.r2, 'Completed');
  // Tickets: U1, S1 and U3 open one each; U3's is then Closed, so it is no longer open.
  await openTicket(t, h.u1.token);
  await openTicket(t, h.s1.token);
  const closed = await openTicket(t, h.u3.token);
  const res = await put(t, h.admin, `/api/tickets/${closed._id}/status`, { status: 'Closed' });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => t.close());

async function dashboard(token: string): Promise<Dashboard> {
  const res = await t.request({ method: 'GET', url: '/api/dashboard', token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Dashboard>();
}

describe('GET /api/dashboard: live cards per role', () => {
  it('Admin: every active campaign (Submitted through Processing) and every open ticket', async () => {
    // U1 2 + U2 2 + S1 1 + U3 1 = 6 active; tickets of U1 and S1 open.
    expect(await dashboard(h.admin)).toMatchObject({ activeCampaigns: 6, openTickets: 2 });
  });

  it("Reseller and Sub-Reseller: their own and their subtree's only", async () => {
    // R1: S1 1 + U1 2 + U2 2 = 5; S1: itself 1 + U1 2 = 3; R2: U3 1 (its own is Completed).
    expect(await dashboard(h.r1.token)).toMatchObject({ activeCampaigns: 5, openTickets: 2 });
    expect(await dashboard(h.s1.token)).toMatchObject({ activeCampaigns: 3, openTickets: 2 });
    expect(await dashboard(h.r2.token)).toMatchObject({ activeCampaigns: 1, openTickets: 0 });
  });

  it('User: campaigns sent, the mean success rate of its reported campaigns, its open tickets', async () => {
    // U1: Completed + Report Generated = 2 sent; (80% + 25%) / 2 = 52.5%.
    expect(await dashboard(h.u1.token)).toMatchObject({
      campaignsSent: 2,
      avgSuccessRate: 52.5,
      openTickets: 1,
      activeCampaigns: null,
    });
    expect(await dashboard(h.u2.token)).toMatchObject({
      campaignsSent: 1,
      avgSuccessRate: 100,
      openTickets: 0,
    });
    // U3: nothing sent, no report yet (shown as a dash), its only ticket closed.
    expect(await dashboard(h.u3.token)).toMatchObject({
      campaignsSent: 0,
      avgSuccessRate: null,
      openTickets: 0,
    });
  });

  it('every figure a role shows is live: a number, or one count per credit type', async () => {
    const shown: [string, (keyof Dashboard)[], (keyof Dashboard)[]][] = [
      [h.admin, ['totalUsers', 'activeCampaigns', 'openTickets'], ['creditsSentMonth']],
      [
        h.r1.token,
        ['totalUsers', 'activeCampaigns', 'openTickets'],
        ['creditsUsedMonth', 'creditsRemaining'],
      ],
      [
        h.s1.token,
        ['totalUsers', 'activeCampaigns', 'openTickets'],
        ['creditsUsedMonth', 'creditsRemaining'],
      ],
      [h.u1.token, ['campaignsSent', 'avgSuccessRate', 'openTickets'], ['creditsRemaining']],
    ];
    for (const [token, numbers, perType] of shown) {
      const d = await dashboard(token);
      for (const f of numbers) expect(typeof d[f], f).toBe('number');
      for (const f of perType) {
        expect(d[f], f).toEqual(CREDIT_TYPES.map((creditType) => ({ creditType, count: 0 })));
      }
    }
  });
});
