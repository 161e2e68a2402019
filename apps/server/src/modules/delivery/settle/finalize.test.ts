import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  server as msg,
  type CampaignDetail,
  type CampaignList,
  type CampaignReport,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { TASKS } from '../../../jobs/job-queue.js';
import { buildHierarchy, type Hierarchy } from '../../users/test-fixtures.js';
import {
  HELLO,
  NORMAL,
  createCampaign,
  numbers,
  setStatus,
} from '../../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../../campaigns/campaigns.test-fixtures.js';
import { balanceOf } from '../../credits/credits.test-fixtures.js';
import { claimBatch, writeResults } from '../dispatch/dispatch.repo.js';
import { DispatchPresence } from '../dispatch/presence.js';
import { runFinalize } from './finalize.js';
import { setDispatch, setStates } from '../status/status.test-fixtures.js';

/** Settlement of a campaign whose sending ended: refund once, Completed, report, Report Generated. */

let t: TestApp;
let h: Hierarchy;
const FUNDS = 200;
beforeAll(async () => {
  // The dispatcher stays off: these tests set the engine's rows themselves.
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, FUNDS);
});
afterAll(() => t.close());

/** The owner's balance of the campaigns' credit type. */
const balance = () => balanceOf(t.ownerDb, h.u1.user._id, NORMAL);

async function refundsOf(id: string) {
  return t.ownerDb
    .selectFrom('credit_transactions')
    .select(['count', 'reason', 'type', 'to_user_id', 'by_user_id'])
    .where('campaign_id', '=', id)
    .where('kind', '=', 'campaign_refund')
    .orderBy('id')
    .execute();
}

async function campaignRow(id: string) {
  return t.ownerDb
    .selectFrom('campaigns')
    .select([
      'status',
      'charged',
      'charged_count',
      'delivery_settled',
      'delivery_refunded',
      'report_count',
      'report_delivered',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function finalizeJob(id: string) {
  const { rows } = await sql<{ run_at: Date }>`
    SELECT run_at FROM graphile_worker.jobs
     WHERE task_identifier = ${TASKS.finalizeCampaign} AND key = ${`delivery-finalize:${id}`}`.execute(
    t.ownerDb,
  );
  return rows[0];
}

const notificationsOf = (userId: string) =>
  t.ownerDb
    .selectFrom('notifications')
    .select(['event_type', 'message'])
    .where('user_id', '=', userId)
    .orderBy('seq')
    .execute();

describe('runFinalize', () => {
  it('refunds the failed once (twice, concurrently), completes, builds the report, and an Admin Cancelled later gives back only the rest', async () => {
    const p = numbers(10, '81111111');
    const id = await createCampaign(t, h.u1.token, p);
    const start = await balance();
    await setDispatch(t, id, 'Processing', 'done');
    await setStates(
      t,
      id,
      {
        ...Object.fromEntries(p.slice(0, 6).map((n) => [n, 'delivered'])),
        [p[6] as string]: 'read',
        [p[7] as string]: 'failed',
        [p[8] as string]: 'failed',
        // Sent long ago and no receipt since: settled as Sent, neither delivered nor refunded.
        [p[9] as string]: 'sent',
      },
      new Date(Date.now() - 60 * 60_000),
    );
    const before = (await notificationsOf(h.u1.user._id)).length;

    await Promise.all([runFinalize(t.app.ctx, id), runFinalize(t.app.ctx, id)]);
    await runFinalize(t.app.ctx, id);

    const refunds = await refundsOf(id);
    expect(refunds).toEqual([
      {
        count: '2',
        reason: "Refund for campaign 'Hello': 2 not delivered",
        type: 'Added',
        to_user_id: h.u1.user._id,
        by_user_id: h.u1.user._id,
      },
    ]);
    expect(await balance()).toBe(start + 2);
    expect(await campaignRow(id)).toEqual({
      status: 'Report Generated',
      charged: true,
      charged_count: 8,
      delivery_settled: true,
      delivery_refunded: 2,
      report_count: 10,
      report_delivered: 7,
    });
    const news = (await notificationsOf(h.u1.user._id)).slice(before);
    // One notice of the results, with the refund in it; no separate Completed or refund notice.
    expect(news).toEqual([
      {
        event_type: 'campaign_report',
        message: msg.notifyCampaignResults(HELLO, {
          delivered: 7,
          total: 10,
          refunded: 2,
          creditType: NORMAL,
        }),
      },
    ]);
    expect(news[0]?.message).toBe(
      "Your campaign 'Hello' is done: 7 of 10 delivered, 3 failed. The report is ready. " +
        `2 ${NORMAL} credits were refunded.`,
    );

    // The owner's report dialog, CSV export and campaign row read it as an uploaded report.
    const report = await t.request({
      method: 'GET',
      url: `/api/campaigns/${id}/report?limit=100`,
      token: h.u1.token,
    });
    expect(report.statusCode, report.body).toBe(200);
    const page = report.json<CampaignReport>();
    expect(page.summary).toEqual({ total: 10, delivered: 7, failed: 3 });
    expect(page.entries.map((e) => e.status)).toEqual([
      ...Array<string>(6).fill('Delivered'),
      'Read',
      'Failed',
      'Failed',
      'Sent',
    ]);
    const csv = await t.request({
      method: 'GET',
      url: `/api/campaigns/${id}/report/export`,
      token: h.u1.token,
    });
    expect(csv.statusCode).toBe(200);
    // Number and status of each row (reason and last change: the report export's own test).
    const rows = csv.body.trim().split(/\r?\n/);
    expect(rows[0]).toBe('recipient,status,reason,last_change');
    expect(rows.map((l) => l.split(',').slice(0, 2).join(','))).toEqual([
      'recipient,status',
      ...p.map(
        (n, i) =>
          `${n},${['Delivered', 'Read', 'Failed', 'Sent'][[0, 0, 0, 0, 0, 0, 1, 2, 2, 3][i] as number]}`,
      ),
    ]);
    const one = await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: h.u1.token });
    const detail = one.json<CampaignDetail>();
    expect([detail.status, detail.reportCount]).toEqual(['Report Generated', 10]);
    // Reports › Campaign Reports lists Report Generated campaigns.
    const listed = await t.request({
      method: 'GET',
      url: '/api/campaigns',
      query: { status: 'Report Generated', limit: '100' },
      token: h.admin,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const row = listed.json<CampaignList>().campaigns.find((c) => c._id === id);
    expect(row?.reportCount).toBe(10);

    // The Admin cancels afterwards: only the 8 still charged come back, once.
    await setStatus(t, h.admin, id, 'Cancelled');
    expect(await balance()).toBe(start + 10);
    expect((await refundsOf(id)).map((r) => r.count)).toEqual(['2', '8']);
  });

  it('a cancelled dispatch refunds the failed and the never sent; its status stays Cancelled', async () => {
    const p = numbers(10, '82222222');
    const id = await createCampaign(t, h.u1.token, p);
    const start = await balance();
    await setDispatch(t, id, 'Cancelled', 'cancelled');
    await setStates(
      t,
      id,
      {
        [p[0] as string]: 'delivered',
        [p[1] as string]: 'read',
        [p[2] as string]: 'failed',
        [p[3] as string]: 'queued',
      },
      new Date(Date.now() - 60 * 60_000),
    );
    await runFinalize(t.app.ctx, id);
    await runFinalize(t.app.ctx, id);
    expect((await refundsOf(id)).map((r) => r.count)).toEqual(['8']);
    expect(await balance()).toBe(start + 8);
    expect(await campaignRow(id)).toMatchObject({
      status: 'Cancelled',
      charged_count: 2,
      delivery_refunded: 8,
      delivery_settled: true,
      report_count: 0,
    });
  });

  it('cancelled while a first claim is in flight: no refund until its answer is written', async () => {
    const p = numbers(3, '85555555');
    const id = await createCampaign(t, h.u1.token, p);
    const start = await balance();
    await setDispatch(t, id, 'Processing', 'running');
    const presence = new DispatchPresence(t.app.ctx.databaseUrl);
    const key = await presence.enter();
    try {
      const claim = await claimBatch(t.app.ctx.db, id, 1, key);
      if (claim.stopped) throw new Error('stopped');
      const [row] = claim.rows;
      if (!row) throw new Error('nothing claimed');
      const inFlight = await t.ownerDb
        .selectFrom('campaign_recipients')
        .select(['state', 'next_attempt_at'])
        .where('campaign_id', '=', id)
        .where('phone', '=', row.phone)
        .executeTakeFirstOrThrow();
      expect(inFlight).toEqual({ state: 'sending', next_attempt_at: null });

      await setDispatch(t, id, 'Cancelled', 'cancelled');
      await runFinalize(t.app.ctx, id);
      expect(await campaignRow(id)).toMatchObject({ status: 'Cancelled', delivery_settled: false });
      expect(await refundsOf(id)).toEqual([]);

      await writeResults(t.app.ctx.db, id, [
        { phone: row.phone, attempts: row.attempts, state: 'sent', providerMessageId: 'm1' },
      ]);
      // (No wait for its receipt here: the refund alone is under test.)
      await runFinalize(t.app.ctx, id, { receiptWaitMs: 0 });
      // The two never claimed come back; the one sent is not refunded.
      expect((await refundsOf(id)).map((r) => r.count)).toEqual(['2']);
      expect(await balance()).toBe(start + 2);
      expect(await campaignRow(id)).toMatchObject({
        status: 'Cancelled',
        delivery_settled: true,
        delivery_refunded: 2,
      });
    } finally {
      await presence.leave(true);
    }
  });

  it('waits while messages are in flight or unsent, and for receipts within the wait', async () => {
    const p = numbers(3, '83333333');
    const id = await createCampaign(t, h.u1.token, p);
    await setDispatch(t, id, 'Processing', 'done');

    await setStates(t, id, { [p[0] as string]: 'sending', [p[1] as string]: 'delivered' });
    await runFinalize(t.app.ctx, id);
    expect(await campaignRow(id)).toMatchObject({ status: 'Processing', delivery_settled: false });

    // Never claimed (NULL) while the dispatch says done: the dispatcher's to finish.
    await setStates(t, id, { [p[0] as string]: 'delivered' });
    await runFinalize(t.app.ctx, id);
    expect(await campaignRow(id)).toMatchObject({ status: 'Processing', delivery_settled: false });

    // Sent a minute ago, no receipt yet: asked again when the 10-minute wait runs out.
    const sentAt = new Date(Date.now() - 60_000);
    await setStates(t, id, { [p[2] as string]: 'sent' }, sentAt);
    await runFinalize(t.app.ctx, id);
    expect(await campaignRow(id)).toMatchObject({ status: 'Processing', delivery_settled: false });
    const job = await finalizeJob(id);
    expect(job?.run_at.getTime()).toBe(sentAt.getTime() + 10 * 60_000);

    // A shorter wait (injected) has run out: it settles with that one as Sent.
    await runFinalize(t.app.ctx, id, { receiptWaitMs: 30_000 });
    expect(await campaignRow(id)).toMatchObject({
      status: 'Report Generated',
      delivery_settled: true,
      delivery_refunded: 0,
      charged_count: 3,
      report_count: 3,
      report_delivered: 2,
    });
    expect(await refundsOf(id)).toEqual([]);
  });

  it('leaves a campaign the engine never sent, or one still sending, alone', async () => {
    const manual = await createCampaign(t, h.u1.token, numbers(2, '84444444'));
    await setDispatch(t, manual, 'Processing', null);
    const running = await createCampaign(t, h.u1.token, numbers(2, '84444445'));
    await setDispatch(t, running, 'Processing', 'running');
    for (const id of [manual, running]) {
      await runFinalize(t.app.ctx, id);
      expect(await campaignRow(id)).toMatchObject({
        status: 'Processing',
        delivery_settled: false,
      });
      expect(await refundsOf(id)).toEqual([]);
    }
  });
});
