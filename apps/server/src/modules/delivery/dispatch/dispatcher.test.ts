import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { presenceOf } from '../delivery-tasks.js';
import { runDispatchSlice, type DispatchDeps } from './dispatcher.js';
import {
  campaignOf,
  depsFor,
  FakeAdapter,
  makeRetriesDue,
  phones,
  recipientsOf,
  refuse,
  removeDispatchJobs,
  setSender,
  startedCampaign,
} from './dispatch.test-fixtures.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  admin = await t.adminToken();
});
afterAll(() => t.close());

/** One slice, as a job would run it; the jobs it schedules are the test's to run. */
async function slice(deps: DispatchDeps, id: string) {
  await runDispatchSlice(deps, id, 0);
  await removeDispatchJobs(t, id);
}

/** Slices until the sending is done, making retries due in between (no sleeping). */
async function sendAll(deps: DispatchDeps, id: string) {
  for (let i = 0; i < 20; i++) {
    await slice(deps, id);
    if ((await campaignOf(t, id)).dispatch_state !== 'running') return;
    await makeRetriesDue(t, id);
    await t.db.updateTable('senders').set({ throttled_until: null }).execute();
  }
  throw new Error('the campaign never finished');
}

const jobsOf = async (key: string) =>
  (
    await sql<{
      run_at: Date;
    }>`SELECT run_at FROM graphile_worker.jobs WHERE key LIKE ${key}`.execute(t.db)
  ).rows;

describe('the dispatcher', () => {
  it('sends every recipient once, counts them, ends the sending and asks for the settlement', async () => {
    await setSender(t, 1000);
    const to = phones(120);
    const id = await startedCampaign(t, admin, to);
    const adapter = new FakeAdapter();
    await sendAll(depsFor(t, adapter), id);
    expect(adapter.sends).toHaveLength(120);
    expect(new Set(adapter.sends.map((s) => s.reference))).toEqual(
      new Set(to.map((p) => `${id}:${p}`)),
    );
    const rows = await recipientsOf(t, id);
    expect(rows.every((r) => r.state === 'sent' && r.attempts === 1 && r.provider_message_id)).toBe(
      true,
    );
    expect(await campaignOf(t, id)).toMatchObject({
      status: 'Processing',
      dispatch_state: 'done',
      sent_count: 120,
      failed_count: 0,
    });
    expect(await jobsOf(`delivery-finalize:${id}`)).toHaveLength(1);
    const usage = await t.db.selectFrom('sender_daily_usage').select('sent').execute();
    expect(usage).toEqual([{ sent: 120 }]);
  });

  it('retries transient errors with backoff, fails permanent ones at once, and gives up after maxAttempts', async () => {
    await setSender(t, 1000);
    const [flaky, bad, down, ok] = phones(4, 100);
    const id = await startedCampaign(t, admin, [flaky!, bad!, down!, ok!]);
    const adapter = new FakeAdapter(async (m, nth) => {
      if (m.to === flaky && nth <= 2) throw refuse('500', 'Internal error');
      if (m.to === bad) throw refuse('131026', 'Message undeliverable');
      if (m.to === down) throw refuse('503', 'Unavailable');
    });
    const deps = depsFor(t, adapter, {
      maxAttempts: 3,
      backoffBaseMs: 60_000,
      backoffMaxMs: 60_000,
    });
    await slice(deps, id);
    const after1 = new Map((await recipientsOf(t, id)).map((r) => [r.phone, r]));
    expect(after1.get(bad!)).toMatchObject({ state: 'failed', attempts: 1, error_code: '131026' });
    expect(after1.get(ok!)).toMatchObject({ state: 'sent' });
    for (const p of [flaky!, down!]) {
      const r = after1.get(p)!;
      expect(r).toMatchObject({ state: 'queued', attempts: 1 });
      // Backoff with jitter: between half and all of the base for the first retry.
      const wait = r.next_attempt_at!.getTime() - Date.now();
      expect(wait).toBeGreaterThan(20_000);
      expect(wait).toBeLessThanOrEqual(60_000);
    }
    // Not due yet: the next slice sends nothing and schedules itself for the retry.
    await runDispatchSlice(deps, id, 0);
    expect(adapter.sends).toHaveLength(4);
    const [next] = await jobsOf(`delivery-dispatch:${id}:0`);
    expect(next!.run_at.getTime()).toBeGreaterThan(Date.now() + 20_000);
    await removeDispatchJobs(t, id);

    await sendAll(deps, id);
    const rows = new Map((await recipientsOf(t, id)).map((r) => [r.phone, r]));
    expect(rows.get(flaky!)).toMatchObject({ state: 'sent', attempts: 3, error_code: null });
    expect(rows.get(down!)).toMatchObject({ state: 'failed', attempts: 3, error_code: '503' });
    expect(adapter.sentTo(bad!)).toBe(1);
    expect(adapter.sentTo(down!)).toBe(3);
    expect(await campaignOf(t, id)).toMatchObject({ sent_count: 2, failed_count: 2 });
    // Only accepted sends count against the sender's day.
    const usage = await t.db.selectFrom('sender_daily_usage').select('sent').execute();
    expect(usage).toEqual([{ sent: 2 }]);
  });

  it("a recipient's own limit (131056) delays only that recipient", async () => {
    const senderId = await setSender(t, 1000);
    const to = phones(30, 200);
    const pair = to[0]!;
    const id = await startedCampaign(t, admin, to);
    const adapter = new FakeAdapter(async (m, nth) => {
      if (m.to === pair && nth <= 2) throw refuse('131056', 'Pair rate limit hit');
    });
    const deps = depsFor(t, adapter, { backoffBaseMs: 30_000, backoffMaxMs: 30_000 });
    await slice(deps, id);
    const rows = await recipientsOf(t, id);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(29);
    expect(rows.find((r) => r.phone === pair)).toMatchObject({
      state: 'queued',
      error_code: '131056',
    });
    const sender = await t.db
      .selectFrom('senders')
      .select('throttled_until')
      .where('id', '=', senderId)
      .executeTakeFirstOrThrow();
    expect(sender.throttled_until).toBeNull();
    await sendAll(deps, id);
    expect(adapter.sentTo(pair)).toBe(3);
    expect(await campaignOf(t, id)).toMatchObject({ dispatch_state: 'done', sent_count: 30 });
  });

  it('a rate-limit answer (429) slows the sender and loses nothing', async () => {
    const senderId = await setSender(t, 1000);
    const to = phones(40, 300);
    const id = await startedCampaign(t, admin, to);
    let refused = 0;
    const adapter = new FakeAdapter(async (m, nth) => {
      if (nth === 1 && Number(m.to.slice(-1)) % 4 === 0) {
        refused++;
        throw refuse('130429', 'Rate limit hit', 30);
      }
    });
    const deps = depsFor(t, adapter);
    await slice(deps, id);
    const sender = await t.db
      .selectFrom('senders')
      .select(['throttled_until', 'bucket_tokens'])
      .where('id', '=', senderId)
      .executeTakeFirstOrThrow();
    // Retry-After 30 s: the whole sender waits, for every instance.
    expect(sender.throttled_until!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(sender.bucket_tokens).toBe(0);
    const queued = (await recipientsOf(t, id)).filter((r) => r.state === 'queued');
    expect(queued.length).toBe(refused);
    // The refused try does not count as an attempt.
    expect(queued.every((r) => r.attempts === 0)).toBe(true);

    await sendAll(deps, id);
    const rows = await recipientsOf(t, id);
    expect(rows.every((r) => r.state === 'sent' && r.attempts === 1)).toBe(true);
    expect(adapter.sends).toHaveLength(40 + refused);
  });

  it('the daily limit puts the campaign in waiting until the next UTC midnight, not failed', async () => {
    await setSender(t, 1000, 5);
    const to = phones(8, 400);
    const id = await startedCampaign(t, admin, to);
    const adapter = new FakeAdapter();
    await runDispatchSlice(depsFor(t, adapter), id, 0);
    const c = await campaignOf(t, id);
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    expect(c).toMatchObject({ status: 'Processing', dispatch_state: 'waiting', failed_count: 0 });
    expect(c.sent_count).toBe(5);
    expect(c.dispatch_resume_at!.getTime()).toBe(midnight);
    const jobs = await jobsOf(`delivery-dispatch:${id}:%`);
    expect(jobs.map((j) => j.run_at.getTime())).toEqual([midnight, midnight]);
    await removeDispatchJobs(t, id);
    expect((await recipientsOf(t, id)).filter((r) => r.state === null)).toHaveLength(3);

    // The next day (its resume time come and the day's count fresh): it sends the rest.
    await t.db
      .updateTable('campaigns')
      .set({ dispatch_resume_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    await t.db.deleteFrom('sender_daily_usage').execute();
    await sendAll(depsFor(t, adapter), id);
    expect(await campaignOf(t, id)).toMatchObject({ dispatch_state: 'done', sent_count: 8 });
  });

  it('a slice whose presence session is lost sends none of its other rows; the next one sends them at once', async () => {
    await setSender(t, 20); // batches of one
    const to = phones(20, 70_000);
    const id = await startedCampaign(t, admin, to);
    // During the first send the instance's presence session is cut (as PostgreSQL restarting
    // would): the answer comes once the instance has noticed.
    const presence = presenceOf(t.app.ctx);
    const fake = new FakeAdapter(async () => {
      if (fake.sends.length !== 1) return;
      const { rows } = await sql<{ key: number }>`
        SELECT claimed_by AS key FROM campaign_recipients
        WHERE campaign_id = ${id}::uuid AND claimed_by IS NOT NULL LIMIT 1`.execute(t.db);
      const key = rows[0]!.key;
      await sql`SELECT pg_terminate_backend(pid, 10000) FROM pg_locks
                WHERE locktype = 'advisory' AND objsubid = 2
                  AND objid = ${key}::bigint::oid`.execute(t.db);
      for (let i = 0; presence.holds(key); i++) {
        if (i > 500) throw new Error('the presence never noticed');
        await new Promise((r) => setTimeout(r, 10));
      }
    });
    const deps = depsFor(t, fake, { sliceMs: 60_000 });

    await slice(deps, id); // ends early, though its slice had a minute
    const first = fake.sends.length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(to.length);
    await sendAll(deps, id);
    // The rows it had claimed but not sent went to the next slice, not after a lease: each
    // number was sent exactly once.
    expect(fake.sends.map((s) => s.to).sort()).toEqual(to);
    expect((await recipientsOf(t, id)).every((r) => r.state === 'sent')).toBe(true);
  });
});
