import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  scheduleMessages,
  SEND_AT_MAX_DAYS,
  type CampaignReply,
  type CreateCampaignReply,
} from '@herald/contract';
import { startDeliveryApp, type DeliveryTestApp } from '../../../test/delivery-harness.js';
import { runDueJobs, startJobRunner } from '../../jobs/runner.js';
import type { AppContext } from '../../context.js';
import { balanceOf } from '../credits/credits.test-fixtures.js';
import { campaignOf } from '../delivery/dispatch/dispatch.test-fixtures.js';
import {
  entriesOf,
  messageOf,
  NORMAL,
  notificationsOf,
  numbers,
  putStatus,
} from './campaign-actions.test-fixtures.js';
import { fund, postCampaign } from './campaigns.test-fixtures.js';
import { scheduledStartKey, startDueCampaigns } from './campaign-schedule.js';

/**
 * Scheduled sends (docs/delivery.md, Scheduled sends) against the simulator: the wait is a
 * graphile-worker job in the database, so it outlasts the runner that queued it, and the start
 * re-checks under the campaign's row lock, so it happens once.
 */

let t: DeliveryTestApp;
let admin: string;
beforeAll(async () => {
  t = await startDeliveryApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const minutesAhead = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

async function scheduledCampaign(sendAt: string, to = numbers(3)) {
  const user = await t.createUser(admin, { role: 'User' });
  await fund(t, admin, user.user.email, NORMAL, to.length);
  const res = await postCampaign(t, user.token, {
    creditType: NORMAL,
    message: 'Hello later',
    to: to.join(','),
    sendAt,
  });
  expect(res.statusCode, res.body).toBe(201);
  const { campaign } = res.json<CreateCampaignReply>();
  return { id: campaign._id, sendAt: campaign.sendAt, user };
}

async function approve(id: string) {
  const res = await t.request({
    method: 'POST',
    url: `/api/campaigns/${id}/approve`,
    token: admin,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CampaignReply>().campaign;
}

async function startJobOf(id: string) {
  const { rows } = await sql<{ run_at: Date; attempts: number }>`
    SELECT run_at, attempts FROM graphile_worker.jobs WHERE key = ${scheduledStartKey(id)}`.execute(
    t.db,
  );
  return rows;
}

/** The clock moved on: the campaign's time and its job's run_at are now (no waiting). */
async function timeComes(id: string) {
  await t.db
    .updateTable('campaigns')
    .set({ send_at: sql<Date>`now() - interval '1 second'` })
    .where('id', '=', id)
    .execute();
  await sql`UPDATE graphile_worker._private_jobs SET run_at = now() - interval '1 second'
             WHERE key = ${scheduledStartKey(id)}`.execute(t.ownerDb);
}

/** Runs `ctx`'s due jobs (no cron: only the queued jobs) until the sending has ended. */
async function runUntilSent(ctxs: AppContext[], id: string, ms = 20_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await Promise.all(ctxs.map((c) => runDueJobs(c)));
    const c = await campaignOf(t, id);
    if (c.dispatch_state === 'done') return c;
    await sleep(100);
  }
  throw new Error('the sending did not end in time');
}

describe('a scheduled campaign', () => {
  it('waits while Approved, across a restart, and its job sends it at its time', async () => {
    const sendAt = minutesAhead(2);
    const { id, user, ...created } = await scheduledCampaign(sendAt);
    expect(created.sendAt).toBe(sendAt);

    // The first instance's runner is running when the Admin approves.
    const first = await startJobRunner(t.app.ctx);
    try {
      const approved = await approve(id);
      expect(approved).toMatchObject({ status: 'Approved', sendAt, delivery: null });
      const jobs = await startJobOf(id);
      expect(jobs.map((j) => j.run_at.toISOString())).toEqual([sendAt]);
      const notices = await notificationsOf(t, user.user.id);
      expect(notices.at(-1)?.message).toBe(
        scheduleMessages.notifyCampaignApprovedScheduled({ name: 'Hello later' }),
      );
      // A second and a half of a live runner, and one more pass: not before its time.
      await sleep(1_500);
      await runDueJobs(t.app.ctx);
      expect(await campaignOf(t, id)).toMatchObject({ status: 'Approved', dispatch_state: null });
    } finally {
      await first.stop();
    }

    // Restart: a new app context on the same database, with nothing in memory of the first.
    const second = await t.secondInstance();
    await runDueJobs(second.ctx);
    expect((await campaignOf(t, id)).status).toBe('Approved');
    await timeComes(id);
    const sent = await runUntilSent([second.ctx], id);
    expect(sent.sent_count + sent.delivered_count + sent.read_count).toBe(3);
    expect((await campaignOf(t, id)).status).not.toBe('Approved');
    expect(await startJobOf(id)).toEqual([]);
    const notices = await notificationsOf(t, user.user.id);
    expect(notices.map((n) => n.message)).toContain(
      scheduleMessages.notifyCampaignScheduledSending({ name: 'Hello later' }),
    );
  });

  it('approved after its time, is sent at once, with no job to wait for', async () => {
    const { id } = await scheduledCampaign(minutesAhead(5));
    await t.db
      .updateTable('campaigns')
      .set({ send_at: sql<Date>`now() - interval '1 minute'` })
      .where('id', '=', id)
      .execute();
    const approved = await approve(id);
    expect(approved.status).toBe('Processing');
    expect(await startJobOf(id)).toEqual([]);
  });

  it('cancelled before its time, is refunded once, and its job later does nothing', async () => {
    const { id, user } = await scheduledCampaign(minutesAhead(2));
    await approve(id);
    expect(await balanceOf(t.db, user.user.id)).toBe(0);
    const asked = await putStatus(t, user.token, id, 'Cancellation Requested');
    expect(asked.statusCode, asked.body).toBe(200);
    const cancelled = await putStatus(t, admin, id, 'Cancelled');
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await balanceOf(t.db, user.user.id)).toBe(3);

    await timeComes(id);
    await runDueJobs(t.app.ctx);
    expect(await startDueCampaigns(t.app.ctx)).toBe(0);
    expect(await campaignOf(t, id)).toMatchObject({ status: 'Cancelled', dispatch_state: null });
    expect(await startJobOf(id)).toEqual([]);
    expect(await balanceOf(t.db, user.user.id)).toBe(3);
    expect(await entriesOf(t, id, 'campaign_refund')).toHaveLength(1);
  });

  it('asked to cancel before its time, is not started when its job fires', async () => {
    const { id, user } = await scheduledCampaign(minutesAhead(2));
    await approve(id);
    const asked = await putStatus(t, user.token, id, 'Cancellation Requested');
    expect(asked.statusCode, asked.body).toBe(200);
    await timeComes(id);
    await runDueJobs(t.app.ctx);
    expect(await campaignOf(t, id)).toMatchObject({
      status: 'Cancellation Requested',
      dispatch_state: null,
    });
  });

  it('is started once when two instances run its job and the sweep at the same time', async () => {
    const { id, user } = await scheduledCampaign(minutesAhead(2), numbers(5, '98111'));
    await approve(id);
    const second = await t.secondInstance();
    await timeComes(id);
    const [, , a, b] = await Promise.all([
      runDueJobs(t.app.ctx),
      runDueJobs(second.ctx),
      startDueCampaigns(t.app.ctx),
      startDueCampaigns(second.ctx),
    ]);
    const sent = await runUntilSent([t.app.ctx, second.ctx], id);
    expect(sent.sent_count + sent.delivered_count + sent.read_count).toBe(5);
    const started = (await notificationsOf(t, user.user.id)).filter(
      (n) => n.message === scheduleMessages.notifyCampaignScheduledSending({ name: 'Hello later' }),
    );
    expect(started).toHaveLength(1);
    // The sweeps found it due, but at most one of them (or the job) took it.
    expect(a + b).toBeLessThanOrEqual(1);
    expect(await entriesOf(t, id, 'campaign_debit')).toHaveLength(1);
  });
});

describe('Send at at creation', () => {
  const user = async () => {
    const u = await t.createUser(admin, { role: 'User' });
    await fund(t, admin, u.user.email, NORMAL, 5);
    return u;
  };
  const create = async (token: string, sendAt: string) =>
    postCampaign(t, token, { creditType: NORMAL, message: 'Hi', to: numbers(1).join(','), sendAt });

  it('refuses a past time, one too far ahead and one that is no time, with the contract’s words', async () => {
    const u = await user();
    const cases: [string, string][] = [
      [new Date(Date.now() - 5 * 60_000).toISOString(), scheduleMessages.sendAtPast],
      [
        new Date(Date.now() + (SEND_AT_MAX_DAYS + 1) * 24 * 3_600_000).toISOString(),
        scheduleMessages.sendAtTooFar,
      ],
      ['tomorrow at noon', scheduleMessages.sendAtInvalid],
    ];
    for (const [sendAt, message] of cases) {
      const res = await create(u.token, sendAt);
      expect([res.statusCode, messageOf(res)], sendAt).toEqual([400, message]);
    }
    expect(await balanceOf(t.db, u.user.id)).toBe(5);
  });

  it('keeps no time when none is given, and accepts one a few seconds ago (clock slack)', async () => {
    const u = await user();
    const none = await postCampaign(t, u.token, {
      creditType: NORMAL,
      message: 'Hi',
      to: numbers(1).join(','),
    });
    expect(none.json<CreateCampaignReply>().campaign.sendAt).toBeNull();
    const slack = await create(u.token, new Date(Date.now() - 10_000).toISOString());
    expect(slack.statusCode, slack.body).toBe(201);
  });

  it('is the public API’s too: its JSON create takes sendAt and answers it', async () => {
    const u = await user();
    const post = (sendAt: string) =>
      t.request({
        method: 'POST',
        url: '/api/v1/campaigns',
        token: u.token,
        payload: { creditType: NORMAL, message: 'Hi', recipients: numbers(1), sendAt },
      });
    const far = new Date(Date.now() + (SEND_AT_MAX_DAYS + 1) * 24 * 3_600_000).toISOString();
    const refused = await post(far);
    expect([refused.statusCode, messageOf(refused)]).toEqual([400, scheduleMessages.sendAtTooFar]);
    const sendAt = minutesAhead(30);
    const created = await post(sendAt);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<CreateCampaignReply>().campaign.sendAt).toBe(sendAt);
  });
});
