import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import {
  HELLO,
  createCampaign,
  entriesOf,
  messageOf,
  NORMAL,
  notificationsOf,
  putStatus,
} from '../../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../../campaigns/campaigns.test-fixtures.js';
import { runDispatchSlice } from './dispatcher.js';
import {
  campaignOf,
  depsFor,
  FakeAdapter,
  makeRetriesDue,
  phones,
  recipientsOf,
  removeDispatchJobs,
  setSender,
} from './dispatch.test-fixtures.js';

let t: TestApp;
let off: TestApp;
let admin: string;
beforeAll(async () => {
  [t, off] = await Promise.all([createTestApp(), createTestApp({ DELIVERY_DISPATCH: 'off' })]);
  admin = await t.adminToken();
});
afterAll(() => Promise.all([t.close(), off.close()]));

async function userCampaign(app: TestApp, token: string, to: string[]) {
  const user = await app.createUser(token, { role: 'User' });
  await fund(app, token, user.user.email, NORMAL, to.length);
  return { user, id: await createCampaign(app, user.token, to) };
}

const jobKeys = async (app: TestApp, id: string) =>
  (
    await sql<{ key: string }>`SELECT key FROM graphile_worker.jobs
      WHERE key LIKE ${`delivery-%:${id}%`} ORDER BY key`.execute(app.db)
  ).rows.map((r) => r.key);

const control = (id: string, action: 'pause' | 'resume', token?: string) =>
  t.request({ method: 'POST', url: `/api/campaigns/${id}/delivery/${action}`, token });

/** Approves through Change Status; the test runs the slices itself, so the jobs go. */
async function approved(to: string[]) {
  const c = await userCampaign(t, admin, to);
  const res = await putStatus(t, admin, c.id, 'Approved');
  expect(res.statusCode, res.body).toBe(200);
  return c;
}

describe('starting the sending', () => {
  it("the Admin's Approved becomes Processing with the lane jobs, the sender and the owner told", async () => {
    const { user, id } = await userCampaign(t, admin, phones(3));
    const res = await putStatus(t, admin, id, 'Approved');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ campaign: { status: string } }>().campaign.status).toBe('Processing');
    const sender = await t.db
      .selectFrom('senders')
      .select('id')
      .where('is_default', '=', true)
      .executeTakeFirstOrThrow();
    expect(await campaignOf(t, id)).toMatchObject({
      status: 'Processing',
      dispatch_state: 'running',
      sender_id: sender.id,
      simulated: true,
    });
    expect(await jobKeys(t, id)).toEqual([
      `delivery-dispatch:${id}:0`,
      `delivery-dispatch:${id}:1`,
    ]);
    const notes = (await notificationsOf(t, user.user.id))
      .filter((n) => n.event_type === 'campaign_status')
      .map((n) => n.message);
    // One notice for the step: approved and already being sent.
    expect(notes).toEqual([msg.notifyCampaignApprovedSending(HELLO)]);
    await removeDispatchJobs(t, id);
  });

  it('with automatic dispatch off, Approved stays Approved and nothing is queued', async () => {
    const offAdmin = await off.adminToken();
    const { id } = await userCampaign(off, offAdmin, phones(3));
    const res = await putStatus(off, offAdmin, id, 'Approved');
    expect(res.statusCode, res.body).toBe(200);
    expect(await campaignOf(off, id)).toMatchObject({ status: 'Approved', dispatch_state: null });
    expect(await jobKeys(off, id)).toEqual([]);
  });
});

describe('pause, resume and cancel', () => {
  it('answers 403 to others, 404 to an unknown id, 409 when there is nothing to pause or resume', async () => {
    const { user, id } = await approved(phones(2, 50));
    await removeDispatchJobs(t, id);
    expect((await control(id, 'pause', user.token)).statusCode).toBe(403);
    expect((await control(id, 'pause')).statusCode).toBe(401);
    const unknown = await control('00000000-0000-4000-8000-000000000000', 'pause', admin);
    expect([unknown.statusCode, messageOf(unknown)]).toEqual([404, msg.campaignNotFound]);
    const notPaused = await control(id, 'resume', admin);
    expect([notPaused.statusCode, messageOf(notPaused)]).toEqual([409, msg.deliveryNotPaused]);
    const paused = await control(id, 'pause', admin);
    expect([paused.statusCode, messageOf(paused)]).toEqual([200, msg.deliveryPaused]);
    const again = await control(id, 'pause', admin);
    expect([again.statusCode, messageOf(again)]).toEqual([409, msg.deliveryNotSending]);
    const resumed = await control(id, 'resume', admin);
    expect([resumed.statusCode, messageOf(resumed)]).toEqual([200, msg.deliveryResumed]);
    expect(await jobKeys(t, id)).toHaveLength(2);
    await removeDispatchJobs(t, id);
  });

  it('pause stops the claims at once (only sends in flight finish); resume sends the rest once', async () => {
    // Batches of 20 (the bucket holds 0.1 s of 200/s): the pause lands between batches.
    await setSender(t, 200);
    const to = phones(400, 1000);
    const { id } = await approved(to);
    await removeDispatchJobs(t, id);
    const adapter = new FakeAdapter(() => sleep(5));
    const deps = depsFor(t, adapter, { sliceMs: 20_000 });
    const running = runDispatchSlice(deps, id, 0);
    while (adapter.sends.length < 30) await sleep(5);
    expect((await control(id, 'pause', admin)).statusCode).toBe(200);
    const sendsAtPause = adapter.sends.length;
    const inFlight = (await recipientsOf(t, id)).filter((r) => r.state === 'sending').length;
    await running;
    // The slice saw the pause at its next claim: only the sends already in flight went out.
    expect(adapter.sends.length - sendsAtPause).toBeLessThanOrEqual(inFlight);
    const afterPause = await recipientsOf(t, id);
    expect(afterPause.filter((r) => r.state === 'sending')).toHaveLength(0);
    expect(afterPause.filter((r) => r.state === null).length).toBeGreaterThan(0);
    expect(await campaignOf(t, id)).toMatchObject({ dispatch_state: 'paused' });
    // While paused a slice sends nothing.
    await runDispatchSlice(deps, id, 1);
    expect(adapter.sends.length).toBe(afterPause.filter((r) => r.state === 'sent').length);

    expect((await control(id, 'resume', admin)).statusCode).toBe(200);
    await removeDispatchJobs(t, id);
    await setSender(t, 10_000);
    for (let i = 0; i < 10 && (await campaignOf(t, id)).dispatch_state === 'running'; i++) {
      await runDispatchSlice(depsFor(t, adapter), id, 0);
      await removeDispatchJobs(t, id);
      await makeRetriesDue(t, id);
    }
    expect(await campaignOf(t, id)).toMatchObject({ dispatch_state: 'done', sent_count: 400 });
    expect(adapter.sends).toHaveLength(400);
    expect(new Set(adapter.sends.map((s) => s.to)).size).toBe(400);
  });

  it('Cancelled while sending stops the engine and leaves the refund to the settlement', async () => {
    const { id } = await approved(phones(5, 3000));
    await removeDispatchJobs(t, id);
    const adapter = new FakeAdapter();
    const res = await putStatus(t, admin, id, 'Cancelled');
    expect(res.statusCode, res.body).toBe(200);
    expect(await campaignOf(t, id)).toMatchObject({
      status: 'Cancelled',
      dispatch_state: 'cancelled',
    });
    // No full refund here: the settlement refunds the failed and unsent, once.
    expect(await entriesOf(t, id, 'campaign_refund')).toEqual([]);
    const row = await t.db
      .selectFrom('campaigns')
      .select('charged')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.charged).toBe(true);
    expect(await jobKeys(t, id)).toContain(`delivery-finalize:${id}`);
    await runDispatchSlice(depsFor(t, adapter), id, 0);
    expect(adapter.sends).toHaveLength(0);
  });

  it('an Admin moving a campaign out of Processing by hand stops the engine too', async () => {
    const { id } = await approved(phones(5, 5000));
    await removeDispatchJobs(t, id);
    const res = await putStatus(t, admin, id, 'Completed');
    expect(res.statusCode, res.body).toBe(200);
    expect(await campaignOf(t, id)).toMatchObject({
      status: 'Completed',
      dispatch_state: 'cancelled',
    });
    expect(await jobKeys(t, id)).toContain(`delivery-finalize:${id}`);
    const adapter = new FakeAdapter();
    await runDispatchSlice(depsFor(t, adapter), id, 0);
    expect(adapter.sends).toHaveLength(0);
  });

  it('a campaign the engine never touched is refunded in full on Cancelled, as before', async () => {
    const { id } = await userCampaign(t, admin, phones(4, 4000));
    const res = await putStatus(t, admin, id, 'Cancelled');
    expect(res.statusCode, res.body).toBe(200);
    expect(await entriesOf(t, id, 'campaign_refund')).toHaveLength(1);
    expect(await campaignOf(t, id)).toMatchObject({ dispatch_state: null });
  });
});
