import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import {
  canAdvanceDelivery,
  DELIVERY_STATES,
  STATUS_EVENT_STATES,
  type DeliveryState,
  type StatusEventState,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import type { Database } from '../../../db/schema.js';
import { buildHierarchy, type Hierarchy } from '../../users/test-fixtures.js';
import { NORMAL, createCampaign, numbers } from '../../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../../campaigns/campaigns.test-fixtures.js';
import { writeResults } from '../dispatch/dispatch.repo.js';
import { transactionalBatchWrite } from './status-writer.js';
import { applyStatusBatch, type RecipientEvent } from './status.repo.js';
import { counters, countsFromRows, setStates, statesOf } from './status.test-fixtures.js';

/** The status writer's one statement against real rows: forward moves only, exact counters. */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 2000);
});
afterAll(() => t.close());

const T0 = Date.UTC(2026, 0, 1);
function event(
  campaignId: string,
  phone: string,
  state: StatusEventState,
  offsetMs = 0,
): RecipientEvent {
  return {
    campaignId,
    phone,
    state,
    at: new Date(T0 + offsetMs),
    providerMessageId: `pm-${phone}`,
    errorCode: state === 'failed' ? '131049' : null,
    errorText: state === 'failed' ? 'Message not delivered' : null,
  };
}

describe('applyStatusBatch', () => {
  it('applies out-of-order and repeated events once, with exact counters', async () => {
    const p = numbers(8, '91111111');
    const id = await createCampaign(t, h.u1.token, p);
    await setStates(t, id, Object.fromEntries(p.map((n) => [n, 'sending'])));
    const [p0, p1, p2, p3, p4, p5] = p as [string, string, string, string, string, string];

    const first = await applyStatusBatch(t.db, [
      event(id, p0, 'delivered', 20),
      event(id, p0, 'sent', 10), // arrives after its receipt
      event(id, p0, 'delivered', 20), // repeated
      event(id, p1, 'sent'),
      event(id, p2, 'failed'),
      event(id, p3, 'read', 30), // sent and delivered never came
      event(id, p4, 'read', 30),
      event(id, p4, 'sent', 10),
      event(id, p4, 'delivered', 20),
    ]);
    expect(first).toMatchObject({ applied: 5, unknown: 0 });
    expect(first.campaigns).toEqual([{ id, dispatchState: null, settled: false }]);
    expect(first.late).toEqual([]);
    expect(await statesOf(t, id)).toMatchObject({
      [p0]: 'delivered',
      [p1]: 'sent',
      [p2]: 'failed',
      [p3]: 'read',
      [p4]: 'read',
      [p5]: 'sending',
    });
    expect(await counters(t, id)).toEqual({ sent: 1, delivered: 1, read: 2, failed: 1 });

    const second = await applyStatusBatch(t.db, [
      event(id, p0, 'sent', 10), // late: ignored
      event(id, p0, 'delivered', 20), // again: ignored
      event(id, p1, 'delivered', 40), // sent -> delivered moves one count
      event(id, p1, 'delivered', 40),
      event(id, p2, 'delivered', 40), // after failed: ignored
      event(id, p3, 'failed', 40), // after read: ignored
      event(id, p5, 'failed', 40),
      event(id, '99999999999', 'delivered'), // no such recipient
      event('00000000-0000-4000-8000-000000000000', p0, 'delivered'),
    ]);
    expect(second).toMatchObject({ applied: 2, unknown: 2 });
    expect(await counters(t, id)).toEqual({ sent: 0, delivered: 2, read: 2, failed: 2 });
    expect(await counters(t, id)).toEqual(await countsFromRows(t, id));

    const rows = await t.db
      .selectFrom('campaign_recipients')
      .selectAll()
      .where('campaign_id', '=', id)
      .where('phone', 'in', [p1, p4, p5])
      .orderBy('phone')
      .execute();
    const [r1, r4, r5] = rows;
    // Each state's own time, from the provider's events.
    expect(r1?.sent_at?.getTime()).toBe(T0);
    expect(r1?.delivered_at?.getTime()).toBe(T0 + 40);
    expect(r1?.state_at?.getTime()).toBe(T0 + 40);
    expect(r4?.sent_at?.getTime()).toBe(T0 + 10);
    expect(r4?.delivered_at?.getTime()).toBe(T0 + 20);
    expect(r4?.read_at?.getTime()).toBe(T0 + 30);
    expect(r4?.provider_message_id).toBe(`pm-${p4}`);
    expect(r5).toMatchObject({ state: 'failed', error_code: '131049' });
    expect(r5?.error_text).toBe('Message not delivered');
    expect(r5?.failed_at?.getTime()).toBe(T0 + 40);
  });

  it("moves exactly as the contract's canAdvanceDelivery allows, from every state", async () => {
    const from: (DeliveryState | null)[] = [null, ...DELIVERY_STATES];
    const cases = from.flatMap((f) => STATUS_EVENT_STATES.map((to) => ({ from: f, to })));
    const p = numbers(cases.length, '92222222');
    const id = await createCampaign(t, h.u1.token, p);
    await setStates(t, id, Object.fromEntries(cases.map((c, i) => [p[i], c.from])));
    const before = await counters(t, id);

    await applyStatusBatch(
      t.db,
      cases.map((c, i) => event(id, p[i] as string, c.to)),
    );
    const after = await statesOf(t, id);
    cases.forEach((c, i) => {
      const expected = canAdvanceDelivery(c.from, c.to) ? c.to : c.from;
      expect(after[p[i] as string], `${c.from} -> ${c.to}`).toBe(expected);
    });
    const now = await counters(t, id);
    expect(now).toEqual(await countsFromRows(t, id));
    expect(now).not.toEqual(before);
  });

  it('writes a batch of 1,000 events with one statement', async () => {
    const p = Array.from({ length: 500 }, (_, i) => `9333333${String(i).padStart(3, '0')}`);
    const id = await createCampaign(t, h.u1.token, p);
    await setStates(t, id, Object.fromEntries(p.map((n) => [n, 'sending'])));
    const pool = new pg.Pool({ connectionString: t.app.ctx.databaseUrl, max: 1 });
    let statements = 0;
    const counted = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      log: (e) => {
        if (e.level === 'query') statements++;
      },
    });
    try {
      const events = p.flatMap((n, i) => [
        event(id, n, i % 10 === 0 ? 'failed' : 'delivered', 20),
        event(id, n, 'sent', 10),
      ]);
      expect(events).toHaveLength(1000);
      const result = await applyStatusBatch(counted, events);
      expect(statements).toBe(1);
      expect(result.applied).toBe(500);
      expect(await counters(t, id)).toEqual({ sent: 0, delivered: 450, read: 0, failed: 50 });
    } finally {
      await counted.destroy();
    }
  });

  it('keeps counters exact when a dispatcher write commits while the batch waits for its rows', async () => {
    // The dispatcher's write moves p0 sending -> sent and sent_count 0 -> 1 in one statement and
    // holds its transaction open; the batch's 'delivered' for p0 takes its snapshot then (sent_count
    // 0 there) and waits for p0's lock. Once the write commits, the lock returns p0 as 'sent', so
    // the batch takes 1 from sent_count: it must take it from the committed 1, not the snapshot's 0.
    const p = numbers(2, '93444444');
    const [p0, p1] = p as [string, string];
    const id = await createCampaign(t, h.u1.token, p);
    await setStates(t, id, { [p0]: 'sending', [p1]: 'sending' });
    expect(await counters(t, id)).toEqual({ sent: 0, delivered: 0, read: 0, failed: 0 });

    let batch: Promise<unknown> = Promise.resolve();
    await t.db.transaction().execute(async (tx) => {
      await writeResults(tx, id, [
        { phone: p0, attempts: 0, state: 'sent', providerMessageId: `pm-${p0}` },
      ]);
      batch = applyStatusBatch(t.db, [event(id, p0, 'delivered', 20)]).then(
        (r) => r,
        (err: unknown) => err,
      );
      await waitForLockWaiter();
    });
    const applied = await batch;
    expect(applied).toMatchObject({ applied: 1, unknown: 0 });
    expect(await statesOf(t, id)).toEqual({ [p0]: 'delivered', [p1]: 'sending' });
    expect(await counters(t, id)).toEqual({ sent: 0, delivered: 1, read: 0, failed: 0 });
    expect(await counters(t, id)).toEqual(await countsFromRows(t, id));
  });

  it('writes a batch again when it lost a deadlock to a dispatcher write taking its rows in another order', async () => {
    // The dispatcher's write takes p1, then p0 (its results come in the order the sends ended);
    // the batch takes p0, then waits for p1: a cycle PostgreSQL breaks by failing the batch.
    const p = numbers(2, '93555555');
    const [p0, p1] = p as [string, string];
    const id = await createCampaign(t, h.u1.token, p);
    await setStates(t, id, { [p0]: 'sending', [p1]: 'sending' });
    const sent = (phone: string) => ({
      phone,
      attempts: 0,
      state: 'sent' as const,
      providerMessageId: `pm-${phone}`,
    });

    let batch: Promise<unknown> = Promise.resolve();
    await t.db.transaction().execute(async (tx) => {
      await writeResults(tx, id, [sent(p1)]);
      batch = transactionalBatchWrite(t.app.ctx)([
        event(id, p0, 'delivered', 20),
        event(id, p1, 'delivered', 20),
      ]).then(
        (r) => r,
        (err: unknown) => err,
      );
      await waitForLockWaiter();
      await writeResults(tx, id, [sent(p0)]);
    });
    expect(await batch).toEqual({ unknown: 0 });
    expect(await statesOf(t, id)).toEqual({ [p0]: 'delivered', [p1]: 'delivered' });
    expect(await counters(t, id)).toEqual({ sent: 0, delivered: 2, read: 0, failed: 0 });
  });
});

/**
 * Resolves once a session of this test's database waits for a lock (the batch, on p0's row: a
 * row lock waits on its holder's transaction id, a lock of no database, hence the join).
 */
async function waitForLockWaiter(): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await sql<{ waiting: number }>`
      SELECT count(*)::int AS waiting FROM pg_locks l
        JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE NOT l.granted AND a.datname = current_database()`.execute(t.ownerDb);
    if ((rows[0]?.waiting ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the status batch never waited for the row the dispatcher holds');
}
