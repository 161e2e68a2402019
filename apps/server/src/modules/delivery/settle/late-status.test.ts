import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { CampaignReport } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { TASKS } from '../../../jobs/job-queue.js';
import { buildHierarchy, type Hierarchy } from '../../users/test-fixtures.js';
import { NORMAL, createCampaign, numbers } from '../../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../../campaigns/campaigns.test-fixtures.js';
import { balanceOf } from '../../credits/credits.test-fixtures.js';
import { runFinalize } from './finalize.js';
import {
  counters,
  countsFromRows,
  ev,
  postCallback,
  setDispatch,
  setStates,
  statesOf,
} from '../status/status.test-fixtures.js';

/**
 * Status events arriving after the campaign was settled (delivery-report.repo.ts, applyLateMoves):
 * rows, counters and report move; the refund never does.
 */

const SECRET = 'late-status-test-secret-0123456789';
let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_WEBHOOK_SECRET: SECRET, DELIVERY_DISPATCH: 'off' });
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
});
afterAll(() => t.close());

const balance = () => balanceOf(t.ownerDb, h.u1.user._id, NORMAL);
const HOUR_AGO = () => new Date(Date.now() - 60 * 60_000);

async function settlement(id: string) {
  const campaign = await t.ownerDb
    .selectFrom('campaigns')
    .select(['status', 'charged_count', 'delivery_refunded', 'report_count', 'report_delivered'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const refunds = await t.ownerDb
    .selectFrom('credit_transactions')
    .select('count')
    .where('campaign_id', '=', id)
    .where('kind', '=', 'campaign_refund')
    .execute();
  const { rows: jobs } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM graphile_worker.jobs
     WHERE task_identifier = ${TASKS.finalizeCampaign} AND key = ${`delivery-finalize:${id}`}`.execute(
    t.ownerDb,
  );
  return { ...campaign, refunds: refunds.map((r) => r.count), finalizeJobs: jobs[0]?.n };
}

async function report(id: string) {
  const res = await t.request({
    method: 'GET',
    url: `/api/campaigns/${id}/report?limit=100`,
    token: h.u1.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json<CampaignReport>();
  return { summary: page.summary, statuses: page.entries.map((e) => e.status) };
}

async function exportLines(id: string) {
  const res = await t.request({
    method: 'GET',
    url: `/api/campaigns/${id}/report/export`,
    token: h.u1.token,
  });
  expect(res.statusCode).toBe(200);
  const [header, ...lines] = res.body.trim().split(/\r?\n/);
  expect(header).toBe('recipient,status,reason,last_change');
  // Number and status: the reason and time are the report export's own test's.
  return lines.map((l) => l.split(',').slice(0, 2).join(','));
}

describe('status events after settlement', () => {
  it('move the row, the counters and the report of a Report Generated campaign, never the refund', async () => {
    const p = numbers(6, '85555555');
    const [p0, p1, p2, p3, p4, p5] = p as [string, string, string, string, string, string];
    const id = await createCampaign(t, h.u1.token, p);
    await setDispatch(t, id, 'Processing', 'done');
    await setStates(
      t,
      id,
      { [p0]: 'delivered', [p1]: 'sent', [p2]: 'failed', [p3]: 'sent', [p4]: 'read', [p5]: 'sent' },
      HOUR_AGO(),
    );
    await runFinalize(t.app.ctx, id);
    const settled = {
      status: 'Report Generated',
      charged_count: 5,
      delivery_refunded: 1,
      report_count: 6,
      refunds: ['1'],
      finalizeJobs: 0,
    };
    expect(await settlement(id)).toEqual({ ...settled, report_delivered: 2 });
    const start = await balance();
    // An Admin's upload wrote this entry otherwise: a late event leaves it as it is.
    await t.ownerDb
      .updateTable('campaign_report_entries')
      .set({ status: 'DELIVRD' })
      .where('campaign_id', '=', id)
      .where('phone', '=', p5)
      .execute();
    await t.ownerDb
      .updateTable('campaigns')
      .set({ report_delivered: 3 })
      .where('id', '=', id)
      .execute();

    const res = await postCallback(
      t,
      [
        ev(id, p0, 'read', 10), // delivered -> read: still delivered in the report
        ev(id, p1, 'delivered', 10), // a receipt after the receipt wait
        ev(id, p2, 'delivered', 10), // refunded as failed: stays failed
        ev(id, p3, 'failed', 10), // failed after settling as sent: stays charged
        ev(id, p5, 'read', 10), // the row moves, the uploaded entry stays
      ],
      SECRET,
    );
    expect(res.statusCode, res.body).toBe(200);

    expect(await statesOf(t, id)).toEqual({
      [p0]: 'read',
      [p1]: 'delivered',
      [p2]: 'failed',
      [p3]: 'failed',
      [p4]: 'read',
      [p5]: 'read',
    });
    expect(await counters(t, id)).toEqual({ sent: 0, delivered: 1, read: 3, failed: 2 });
    expect(await counters(t, id)).toEqual(await countsFromRows(t, id));
    // One more delivered (p1), none less: p3 was Sent, which the report never counted.
    expect(await settlement(id)).toEqual({ ...settled, report_delivered: 4 });
    expect(await balance()).toBe(start);
    expect(await report(id)).toEqual({
      summary: { total: 6, delivered: 4, failed: 2 },
      statuses: ['Read', 'Delivered', 'Failed', 'Failed', 'Read', 'DELIVRD'],
    });
    expect(await exportLines(id)).toEqual([
      `${p0},Read`,
      `${p1},Delivered`,
      `${p2},Failed`,
      `${p3},Failed`,
      `${p4},Read`,
      `${p5},DELIVRD`,
    ]);

    // The same events again change nothing.
    const again = await postCallback(
      t,
      [ev(id, p1, 'delivered', 10), ev(id, p3, 'failed')],
      SECRET,
    );
    expect(again.statusCode).toBe(200);
    expect(await settlement(id)).toEqual({ ...settled, report_delivered: 4 });
  });

  it('a recipient refunded as never sent, delivered late, shows delivered and stays refunded', async () => {
    const p = numbers(3, '86666666');
    const [p0, p1, p2] = p as [string, string, string];
    const id = await createCampaign(t, h.u1.token, p);
    await setDispatch(t, id, 'Cancelled', 'cancelled');
    await setStates(t, id, { [p0]: 'delivered', [p1]: 'queued', [p2]: null }, HOUR_AGO());
    await runFinalize(t.app.ctx, id);
    const settled = {
      status: 'Cancelled',
      charged_count: 1,
      delivery_refunded: 2,
      report_count: 0,
      report_delivered: 0,
      refunds: ['2'],
      finalizeJobs: 0,
    };
    expect(await settlement(id)).toEqual(settled);
    const start = await balance();

    // An earlier attempt of p1 got through after all.
    const res = await postCallback(t, [ev(id, p1, 'delivered', 10)], SECRET);
    expect(res.statusCode, res.body).toBe(200);
    expect(await statesOf(t, id)).toEqual({ [p0]: 'delivered', [p1]: 'delivered', [p2]: null });
    expect(await counters(t, id)).toEqual({ sent: 0, delivered: 2, read: 0, failed: 0 });
    expect(await settlement(id)).toEqual(settled);
    expect(await balance()).toBe(start);
  });
});
