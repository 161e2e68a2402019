import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_LIMITS, server as msg, type Sender } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../../users/test-fixtures.js';

/** Sender routes: the Admin reads and sets each sender's limits; nobody else may. */

let t: TestApp;
let h: Hierarchy;
let simulator: Sender;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  const res = await t.request({ method: 'GET', url: '/api/delivery/senders', token: h.admin });
  simulator = res.json<Sender[]>()[0]!;
});
afterAll(() => t.close());

const put = (id: string, payload: Record<string, unknown>, token = h.admin) =>
  t.request({ method: 'PUT', url: `/api/delivery/senders/${id}`, token, payload });

describe('GET /api/delivery/senders', () => {
  it("lists the seeded simulator with today's UTC usage only", async () => {
    expect(simulator).toMatchObject({
      name: 'Simulator',
      provider: 'Simulator',
      providerKind: 'simulator',
      address: '',
      ratePerSecond: 80,
      dailyLimit: null,
      isDefault: true,
      sentToday: 0,
    });
    await sql`INSERT INTO sender_daily_usage (sender_id, day, sent) VALUES
      (${simulator.id}::uuid, (now() AT TIME ZONE 'UTC')::date, 42),
      (${simulator.id}::uuid, (now() AT TIME ZONE 'UTC')::date - 1, 7)`.execute(t.db);
    const res = await t.request({ method: 'GET', url: '/api/delivery/senders', token: h.admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Sender[]>()).toEqual([{ ...simulator, sentToday: 42 }]);
  });

  it('answers 401 without a token and 403 to every role but Admin', async () => {
    const anon = await t.request({ method: 'GET', url: '/api/delivery/senders' });
    expect(anon.statusCode).toBe(401);
    for (const token of [h.r1.token, h.s1.token, h.u1.token]) {
      const res = await t.request({ method: 'GET', url: '/api/delivery/senders', token });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: msg.forbidden });
    }
  });
});

describe('PUT /api/delivery/senders/:id', () => {
  it('sets the rate and the daily limit, and null makes the limit unlimited', async () => {
    const res = await put(simulator.id, { ratePerSecond: 250, dailyLimit: 10_000 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Sender>()).toMatchObject({ ratePerSecond: 250, dailyLimit: 10_000 });
    const row = await t.db
      .selectFrom('senders')
      .select(['rate_per_second', 'daily_limit'])
      .where('id', '=', simulator.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ rate_per_second: 250, daily_limit: 10_000 });
    const unlimited = await put(simulator.id, { ratePerSecond: 250, dailyLimit: null });
    expect(unlimited.json<Sender>().dailyLimit).toBeNull();
  });

  it('refuses out-of-range values with 400 and changes nothing', async () => {
    const rate = msg.senderRateInvalid(DELIVERY_LIMITS.senderRateMax);
    const daily = msg.senderDailyLimitInvalid(DELIVERY_LIMITS.senderDailyLimitMax);
    for (const [body, message] of [
      [{ ratePerSecond: 0, dailyLimit: null }, rate],
      [{ ratePerSecond: 100_001, dailyLimit: null }, rate],
      [{ ratePerSecond: 1.5, dailyLimit: null }, rate],
      [{ dailyLimit: 5 }, rate],
      [{ ratePerSecond: 10, dailyLimit: 0 }, daily],
      [{ ratePerSecond: 10, dailyLimit: 100_000_001 }, daily],
    ] as const) {
      const res = await put(simulator.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    const list = await t.request({ method: 'GET', url: '/api/delivery/senders', token: h.admin });
    expect(list.json<Sender[]>()[0]).toMatchObject({ ratePerSecond: 250, dailyLimit: null });
  });

  it('answers 404 for an unknown sender and 403 to every role but Admin', async () => {
    const unknown = await put('00000000-0000-4000-8000-000000000000', {
      ratePerSecond: 5,
      dailyLimit: null,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: msg.senderNotFound });
    for (const token of [h.r1.token, h.s1.token, h.u1.token]) {
      const res = await put(simulator.id, { ratePerSecond: 5, dailyLimit: null }, token);
      expect(res.statusCode).toBe(403);
    }
    const list = await t.request({ method: 'GET', url: '/api/delivery/senders', token: h.admin });
    expect(list.json<Sender[]>()[0]!.ratePerSecond).toBe(250);
  });
});
