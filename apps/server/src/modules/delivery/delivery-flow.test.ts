import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignReport } from '@herald/contract';
import { startDeliveryApp, type DeliveryTestApp } from '../../../test/delivery-harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { NORMAL, createCampaign, setStatus } from '../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../campaigns/campaigns.test-fixtures.js';
import { balanceOf } from '../credits/credits.test-fixtures.js';
import { counters, countsFromRows } from './status/status.test-fixtures.js';
import { statusWriterOf } from './status/webhooks.routes.js';

/**
 * End to end over HTTP: an Admin approves, the dispatcher sends to the simulator, the
 * simulator's signed status webhooks come back to the app's route, the writer stores them, and
 * the settlement ends the campaign Report Generated with the failed refunded once.
 */

let t: DeliveryTestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await startDeliveryApp({
    simulator: { ratePerSecond: 1000, failRatio: 0.3, readRatio: 0.5, delayMs: 20 },
  });
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
});
afterAll(() => t.close());

/** The owner's balance of the campaigns' credit type. */
const balance = () => balanceOf(t.ownerDb, h.u1.user._id, NORMAL);

const statusOf = async (id: string) =>
  (
    await t.ownerDb
      .selectFrom('campaigns')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).status;

describe('a campaign delivered through the simulator', () => {
  it('ends Report Generated with the states the webhooks reported and the failed refunded once', async () => {
    // 40 numbers; the one ending 0000 the simulator refuses for good.
    const to = Array.from({ length: 40 }, (_, i) => `97${String(i * 7 + 1).padStart(8, '0')}`);
    to[0] = '9712340000';
    const id = await createCampaign(t, h.u1.token, to);
    const start = await balance();
    await setStatus(t, h.admin, id, 'Approved');

    // The jobs run when asked (no background runner in tests); webhooks arrive on their own.
    const deadline = Date.now() + 60_000;
    while ((await statusOf(id)) !== 'Report Generated') {
      if (Date.now() > deadline) throw new Error(`still ${await statusOf(id)} after 60 s`);
      await t.runDueJobs();
      await new Promise((r) => setTimeout(r, 100));
    }

    const rows = await t.ownerDb
      .selectFrom('campaign_recipients')
      .select(['phone', 'state'])
      .where('campaign_id', '=', id)
      .execute();
    const byState = (s: string) => rows.filter((r) => r.state === s).length;
    const failed = byState('failed');
    const delivered = byState('delivered') + byState('read');
    // Every recipient has a final state; the simulator's ratios gave some of each.
    expect(failed + delivered).toBe(40);
    expect(failed).toBeGreaterThan(1);
    expect(byState('read')).toBeGreaterThan(0);
    expect(rows.find((r) => r.phone === '9712340000')?.state).toBe('failed');
    expect(await counters(t, id)).toEqual(await countsFromRows(t, id));
    expect(statusWriterOf(t.app.ctx)?.stats.events).toBeGreaterThanOrEqual(40);

    expect(await balance()).toBe(start + failed);
    const refunds = await t.ownerDb
      .selectFrom('credit_transactions')
      .select(['count', 'reason'])
      .where('campaign_id', '=', id)
      .where('kind', '=', 'campaign_refund')
      .execute();
    expect(refunds).toEqual([
      { count: String(failed), reason: `Refund for campaign 'Hello': ${failed} not delivered` },
    ]);

    const report = await t.request({
      method: 'GET',
      url: `/api/campaigns/${id}/report?limit=100`,
      token: h.u1.token,
    });
    expect(report.json<CampaignReport>().summary).toEqual({
      total: 40,
      delivered,
      failed,
    });
  });
});
