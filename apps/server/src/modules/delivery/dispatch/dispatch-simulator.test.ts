import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeliveryApp, type DeliveryTestApp } from '../../../../test/delivery-harness.js';
import { runDueJobs } from '../../../jobs/runner.js';
import { shardSums, summedCounts } from '../../campaigns/index.js';
import { recoverAtStart, recoverDispatch, STALL_MS } from '../delivery-tasks.js';
import { campaignOf, phones, recipientsOf, setSender } from './dispatch.test-fixtures.js';
import {
  createCampaign,
  NORMAL,
  putStatus,
} from '../../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../../campaigns/campaigns.test-fixtures.js';

/**
 * The dispatcher against the simulator, on two app instances sharing one database:
 * each sends its slices through the job runner, as in production.
 */

let t: DeliveryTestApp;
let second: FastifyInstance;
let admin: string;
beforeAll(async () => {
  t = await startDeliveryApp({ simulator: { ratePerSecond: 400, delayMs: 20 } });
  second = await t.secondInstance();
  admin = await t.adminToken();
});
afterAll(() => t.close());

/** Both instances run their due jobs until the sending has ended (or `ms` passed). */
async function runUntilSent(id: string, ms = 30_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await Promise.all([runDueJobs(t.app.ctx), runDueJobs(second.ctx)]);
    const state = (await campaignOf(t, id)).dispatch_state;
    if (state !== 'running' && state !== 'waiting') return;
    await sleep(100);
  }
  throw new Error('the sending did not end in time');
}

async function approvedCampaign(to: string[]) {
  const user = await t.createUser(admin, { role: 'User' });
  await fund(t, admin, user.user.email, NORMAL, to.length);
  const id = await createCampaign(t, user.token, to);
  const res = await putStatus(t, admin, id, 'Approved');
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

describe('sending through the simulator', () => {
  it('two instances send each message once, within the cap, with each test number handled', async () => {
    await setSender(t, 400);
    const special = { undeliverable: '9811110000', transient: '9811115000', pair: '9811111313' };
    const to = [...phones(600, 10_001), ...Object.values(special)];
    const before = t.simulator.stats();
    const started = Date.now();
    const id = await approvedCampaign(to);
    await runUntilSent(id);
    const seconds = (Date.now() - started) / 1000;
    const stats = t.simulator.stats();

    expect(stats.duplicates - before.duplicates).toBe(0);
    expect(stats.accepted - before.accepted).toBe(to.length - 1);
    // The shared bucket kept both instances to the sender's 400/s (one burst aside).
    expect(seconds).toBeGreaterThanOrEqual((to.length - 40) / 400);

    const rows = new Map((await recipientsOf(t, id)).map((r) => [r.phone, r]));
    expect(rows.get(special.undeliverable)).toMatchObject({
      state: 'failed',
      attempts: 1,
      error_code: '131026',
    });
    expect(rows.get(special.transient)?.attempts).toBe(2);
    expect(rows.get(special.pair)?.attempts).toBe(3);
    const unsent = [...rows.values()].filter(
      (r) =>
        r.phone !== special.undeliverable && !['sent', 'delivered', 'read'].includes(r.state ?? ''),
    );
    expect(unsent).toEqual([]);
    const c = await t.db
      .selectFrom('campaigns')
      .leftJoinLateral(shardSums, (join) => join.onTrue())
      .select(summedCounts)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(c.sent_count + c.delivered_count + c.read_count).toBe(to.length - 1);
    expect(c.failed_count).toBe(1);
  });

  it('after a crash mid-send, the watchdog gives the campaign its jobs again and no one is skipped', async () => {
    await setSender(t, 1000);
    const to = phones(50, 20_001);
    const id = await approvedCampaign(to);
    // As after kill -9: the jobs gone with the instance, some rows claimed and never answered.
    await sql`SELECT graphile_worker.remove_job(key) FROM graphile_worker.jobs
              WHERE key LIKE ${`delivery-dispatch:${id}:%`}`.execute(t.db);
    await sql`UPDATE campaign_recipients SET state = 'sending', attempts = 1,
                state_at = now() - interval '2 minutes', next_attempt_at = now() - interval '1 minute'
              WHERE campaign_id = ${id}::uuid AND phone IN (${to[0]!}, ${to[1]!})`.execute(t.db);
    await sql`UPDATE campaigns SET dispatch_heartbeat_at = now() - interval '1 minute'
              WHERE id = ${id}::uuid`.execute(t.db);

    expect(await recoverDispatch(t.app.ctx)).toBe(1);
    // Its jobs are back (and the heartbeat fresh): a second run finds nothing stalled.
    expect(await recoverDispatch(t.app.ctx)).toBe(0);
    await runUntilSent(id);
    const rows = await recipientsOf(t, id);
    expect(rows.filter((r) => !['sent', 'delivered', 'read'].includes(r.state ?? ''))).toEqual([]);
    expect(rows.find((r) => r.phone === to[0])?.attempts).toBe(2);
  });

  it('after kill -9, a restart resumes as soon as the dead heartbeat is stale, its locks ignored', async () => {
    await setSender(t, 1000);
    const to = phones(40, 30_001);
    const id = await approvedCampaign(to);
    // Just after kill -9: both lane jobs still locked by the dead worker, its heartbeat fresh.
    const deadFor = async (seconds: number) => {
      await sql`UPDATE graphile_worker._private_jobs
                SET locked_at = now() - make_interval(secs => ${seconds}), locked_by = 'killed'
                WHERE key LIKE ${`delivery-dispatch:${id}:%`}`.execute(t.db);
      await sql`UPDATE campaigns SET dispatch_heartbeat_at = now() - make_interval(secs => ${seconds})
                WHERE id = ${id}::uuid`.execute(t.db);
    };
    await deadFor(3);
    await recoverAtStart(t.app.ctx);
    expect(await recoverDispatch(t.app.ctx)).toBe(0); // the heartbeat is too young yet
    const { rows } = await sql<{ wait: number }>`
      SELECT extract(epoch FROM j.run_at - c.dispatch_heartbeat_at)::float8 AS wait
      FROM graphile_worker.jobs j, campaigns c
      WHERE j.key = 'delivery-recover:stale' AND c.id = ${id}::uuid`.execute(t.db);
    // The second run comes just after that heartbeat turns stale, not at the cron's minute.
    expect(rows[0]?.wait).toBeGreaterThan(STALL_MS / 1000);
    expect(rows[0]?.wait).toBeLessThan(STALL_MS / 1000 + 5);

    // By then the locks are as old as the heartbeat: a dead instance's, the campaign resumes.
    await deadFor(STALL_MS / 1000 + 1);
    expect(await recoverDispatch(t.app.ctx)).toBe(1);
    await runUntilSent(id);
    const left = (await recipientsOf(t, id)).filter(
      (r) => !['sent', 'delivered', 'read'].includes(r.state ?? ''),
    );
    expect(left).toEqual([]);
  });

  it("after kill -9 with sends in flight, a restart takes the dead instance's rows at once", async () => {
    await setSender(t, 1000);
    const to = phones(40, 40_001);
    const id = await approvedCampaign(to);
    // Just after kill -9: the lane jobs locked by the dead worker, its heartbeat fresh, and
    // rows it claimed (on record in dispatch_claimers) under a key no session holds any more.
    await sql`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'killed'
              WHERE key LIKE ${`delivery-dispatch:${id}:%`}`.execute(t.db);
    await sql`UPDATE campaigns SET dispatch_heartbeat_at = now() WHERE id = ${id}::uuid`.execute(
      t.db,
    );
    const { rows: held } = await sql<{ key: number }>`
      SELECT objid::int AS key FROM pg_locks WHERE locktype = 'advisory'`.execute(t.db);
    const dead = held.some((h) => h.key === 7) ? 8 : 7;
    await sql`UPDATE campaign_recipients SET state = 'sending', attempts = 1, state_at = now(),
                next_attempt_at = NULL, claimed_by = ${dead}::int
              WHERE campaign_id = ${id}::uuid AND phone IN (${to[0]!}, ${to[1]!})`.execute(t.db);
    await sql`INSERT INTO dispatch_claimers (campaign_id, key)
              VALUES (${id}::uuid, ${dead}::int)`.execute(t.db);

    // Not stalled by its heartbeat, but its instance is known dead: resumed at once.
    expect(await recoverDispatch(t.app.ctx)).toBe(1);
    await runUntilSent(id);
    const rows = await recipientsOf(t, id);
    expect(rows.filter((r) => !['sent', 'delivered', 'read'].includes(r.state ?? ''))).toEqual([]);
    expect(rows.find((r) => r.phone === to[0])?.attempts).toBe(2);
  });
});
