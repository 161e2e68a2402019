import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ui, type CampaignDetail } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { runDispatchSlice, type DispatchDeps } from './dispatcher.js';
import {
  campaignOf,
  depsFor,
  FakeAdapter,
  phones,
  recipientsOf,
  removeDispatchJobs,
  setSender,
  startedCampaign,
} from './dispatch.test-fixtures.js';

/**
 * Quiet hours in the engine (docs/delivery.md, Quiet hours). The clock the window is read by
 * is the test's (DispatchDeps.now); the campaigns get the default window, 21:00-08:00.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  admin = await t.adminToken();
});
afterAll(() => t.close());

/** 23:30 in Kolkata (quiet), 13:00 in New York (open). */
const INDIA_NIGHT = new Date('2026-01-15T18:00:00Z');
/** 08:30 in Kolkata (open), 22:00 in New York (quiet). */
const INDIA_MORNING = new Date('2026-01-16T03:00:00Z');
/** 18:30 in Kolkata, 08:00 in New York: both open. */
const BOTH_OPEN = new Date('2026-01-15T13:00:00Z');

const usNumbers = (n: number) =>
  Array.from({ length: n }, (_, i) => `1212555${String(i).padStart(4, '0')}`);

const at = (deps: DispatchDeps, now: Date): DispatchDeps => ({ ...deps, now: () => now });

/** Slices until the campaign leaves running (each slice's own jobs removed). */
async function slices(deps: DispatchDeps, id: string) {
  for (let i = 0; i < 10; i++) {
    await runDispatchSlice(deps, id, 0);
    const state = (await campaignOf(t, id)).dispatch_state;
    if (state !== 'running') return state;
    await removeDispatchJobs(t, id);
  }
  throw new Error('the campaign never left running');
}

const laneJobs = async (id: string) =>
  (
    await sql<{ run_at: Date }>`SELECT run_at FROM graphile_worker.jobs
      WHERE key LIKE ${`delivery-dispatch:${id}:%`} ORDER BY key`.execute(t.db)
  ).rows.map((r) => r.run_at.toISOString());

async function detail(id: string): Promise<CampaignDetail> {
  const res = await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: admin });
  expect(res.statusCode).toBe(200);
  return res.json<CampaignDetail>();
}

describe('quiet hours in the dispatcher', () => {
  it('holds the recipients of a zone in quiet hours, sends the open zone’s, and waits for the earliest opening', async () => {
    await setSender(t, 1000);
    const india = phones(30);
    const us = usNumbers(6);
    const id = await startedCampaign(t, admin, [...india, ...us], { quietHours: true });
    const adapter = new FakeAdapter();
    const deps = depsFor(t, adapter, { batchMax: 4 }); // several claims, a cursor that moves

    expect(await slices(at(deps, INDIA_NIGHT), id)).toBe('waiting');
    expect(adapter.sends.map((s) => s.to).sort()).toEqual(us);
    const rows = await recipientsOf(t, id);
    expect(rows.filter((r) => india.includes(r.phone)).every((r) => r.state === null)).toBe(true);
    const c = await campaignOf(t, id);
    // 08:00 in Kolkata; waiting, not finished, and its lanes set for then.
    expect(c.dispatch_resume_at).toEqual(new Date('2026-01-16T02:30:00Z'));
    expect(await laneJobs(id)).toEqual(['2026-01-16T02:30:00.000Z', '2026-01-16T02:30:00.000Z']);
    const shown = await detail(id);
    expect(shown.delivery).toMatchObject({ dispatchState: 'waiting', quietHold: true });
    expect(ui.delivery.quietHold).toBe('Waiting for quiet hours to end');
    await removeDispatchJobs(t, id);

    // The window opens (the resume time is past for the database's clock): the held numbers go.
    expect(await slices(at(deps, INDIA_MORNING), id)).toBe('done');
    expect(adapter.sends).toHaveLength(36);
    expect(new Set(adapter.sends.map((s) => s.to)).size).toBe(36);
    expect((await recipientsOf(t, id)).every((r) => r.state === 'sent')).toBe(true);
    expect((await detail(id)).delivery?.quietHold).toBe(false);
  });

  it('finds again numbers passed over while their zone was closed, once it opens mid-campaign', async () => {
    await setSender(t, 1000);
    // Interleaved: US numbers sort before the Indian ones, so both kinds sit in each batch.
    const india = ['919800000001', '919800000003', '919800000005'];
    const us = usNumbers(5);
    const id = await startedCampaign(t, admin, [...india, ...us], { quietHours: true });
    const adapter = new FakeAdapter();
    // One claim in the night: two US numbers go, nothing of India.
    const deps = depsFor(t, adapter, { batchMax: 2, sliceMs: 1 });
    await runDispatchSlice(at(deps, INDIA_NIGHT), id, 0);
    await removeDispatchJobs(t, id);
    const sentAtNight = adapter.sends.length;
    expect(sentAtNight).toBeGreaterThan(0);
    expect(adapter.sends.every((s) => s.to.startsWith('1212'))).toBe(true);
    // Then every zone is open: the claim goes back for India's numbers too.
    expect(await slices(at(depsFor(t, adapter, { batchMax: 2 }), BOTH_OPEN), id)).toBe('done');
    expect(adapter.sends.map((s) => s.to).sort()).toEqual([...us, ...india].sort());
  });

  it('changes nothing when every zone is open, and nothing without quiet hours', async () => {
    await setSender(t, 1000);
    const to = [...phones(5, 500), ...usNumbers(3)];
    const withQuiet = await startedCampaign(t, admin, to, { quietHours: true });
    const without = await startedCampaign(t, admin, to, { quietHours: false });
    const adapter = new FakeAdapter();
    expect(await slices(at(depsFor(t, adapter), BOTH_OPEN), withQuiet)).toBe('done');
    // Without quiet hours the hour does not matter.
    expect(await slices(at(depsFor(t, adapter), INDIA_NIGHT), without)).toBe('done');
    expect(adapter.sends).toHaveLength(16);
    const captured = await t.db
      .selectFrom('campaigns')
      .select(['id', 'quiet_start', 'quiet_end', 'dispatch_held_from'])
      .where('id', 'in', [withQuiet, without])
      .execute();
    expect(captured.find((r) => r.id === withQuiet)).toMatchObject({
      quiet_start: 21 * 60,
      quiet_end: 8 * 60,
      dispatch_held_from: null,
    });
    expect(captured.find((r) => r.id === without)).toMatchObject({ quiet_start: null });
  });

  it('keeps the window captured at start when the owner’s setting changes later', async () => {
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const set = await t.request({
      method: 'PUT',
      url: '/api/settings/quiet-hours',
      token: reseller.token,
      payload: { start: '23:00', end: '06:00' },
    });
    expect(set.statusCode).toBe(200);
    const id = await startedCampaign(t, admin, phones(2, 900), {
      quietHours: true,
      owner: { email: reseller.user.email, token: reseller.token },
    });
    await t.request({
      method: 'PUT',
      url: '/api/settings/quiet-hours',
      token: reseller.token,
      payload: { start: '20:00', end: '10:00' },
    });
    const row = await t.db
      .selectFrom('campaigns')
      .select(['quiet_start', 'quiet_end'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ quiet_start: 23 * 60, quiet_end: 6 * 60 });
  });
});
