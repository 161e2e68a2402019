import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { openDatabase, type DatabaseHandle } from '../../../db/database.js';
import { setSender } from './dispatch.test-fixtures.js';
import {
  bucketCapacity,
  giveBack,
  MIN_GRANT_SHARE,
  takeTokens,
  throttleSender,
} from './rate-bucket.repo.js';

let t: TestApp;
let other: DatabaseHandle;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  // A second instance: its own pool on the same database, as the app role.
  other = openDatabase(t.app.ctx.databaseUrl, 4);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

/** Takes batches of the bucket's size as fast as it gives them, until `untilMs`. */
async function drain(db: TestApp['db'], senderId: string, want: number, untilMs: number) {
  const grants: { at: number; n: number }[] = [];
  while (Date.now() < untilMs) {
    const g = await takeTokens(db, senderId, want);
    if (g.granted > 0) grants.push({ at: Date.now(), n: g.granted });
    else await new Promise((r) => setTimeout(r, Math.min(g.waitMs, 20)));
  }
  return grants;
}

describe('the sender token bucket', () => {
  it('two instances together never take more than the rate (plus one burst) over a window', async () => {
    const rate = 200;
    const senderId = await setSender(t, rate);
    const cap = bucketCapacity(rate);
    const start = Date.now();
    const windowMs = 1500;
    const [a, b] = await Promise.all([
      drain(t.db, senderId, cap, start + windowMs),
      drain(other.db, senderId, cap, start + windowMs),
    ]);
    const elapsed = (Date.now() - start) / 1000;
    const total = [...a, ...b].reduce((s, g) => s + g.n, 0);
    // The bucket started full (one burst), then refilled at the rate.
    expect(total).toBeLessThanOrEqual(Math.ceil(rate * elapsed) + cap);
    // It does give: both instances got batches, and most of the rate was used.
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(total).toBeGreaterThan(rate * windowMs * 0.0005);
    // Every grant is most of a batch of the bucket's size, never more.
    for (const g of [...a, ...b]) {
      expect(g.n).toBeGreaterThanOrEqual(Math.ceil(cap * MIN_GRANT_SHARE));
      expect(g.n).toBeLessThanOrEqual(cap);
    }
  });

  it('a throttle empties the bucket for every instance until it ends', async () => {
    const senderId = await setSender(t, 100);
    await throttleSender(t.db, senderId, 400);
    const g = await takeTokens(other.db, senderId, 1);
    expect(g.granted).toBe(0);
    expect(g.dailyExhausted).toBe(false);
    expect(g.waitMs).toBeGreaterThan(200);
    expect(g.waitMs).toBeLessThanOrEqual(400);
    await new Promise((r) => setTimeout(r, g.waitMs + 120));
    expect((await takeTokens(t.db, senderId, 1)).granted).toBe(1);
  });

  it('the daily limit holds across instances; what was not sent is given back', async () => {
    const senderId = await setSender(t, 10_000, 25);
    const takes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => takeTokens(i % 2 ? t.db : other.db, senderId, 10)),
    );
    const granted = takes.reduce((s, g) => s + g.granted, 0);
    expect(granted).toBe(25);
    const used = await t.db.selectFrom('sender_daily_usage').select('sent').execute();
    expect(used).toEqual([{ sent: 25 }]);
    const none = await takeTokens(t.db, senderId, 10);
    expect(none).toMatchObject({ granted: 0, dailyExhausted: true });

    // Three sends the provider refused do not count against the day.
    await giveBack(t.db, senderId, none.day, { tokens: 0, usage: 3 });
    const again = await takeTokens(t.db, senderId, 10);
    expect(again).toMatchObject({ granted: 3, dailyExhausted: false });
    expect((await takeTokens(t.db, senderId, 10)).dailyExhausted).toBe(true);
  });
});
