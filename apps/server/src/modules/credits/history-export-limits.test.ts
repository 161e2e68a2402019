import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import {
  HISTORY_EXPORT_BUSY_RETRY_SECONDS,
  HISTORY_EXPORTS_AT_ONCE,
  RATE_LIMITS,
  server as msg,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { creditBody, postCredit } from './credits.test-fixtures.js';
import { exportRunningKey, takeExportSlot } from './history-export-limits.js';

/**
 * History export limits: RATE_LIMITS.historyExportPerUser exports per window and
 * HISTORY_EXPORTS_AT_ONCE running at once per user, both answered 429 before any byte; a
 * running export gives its slot back when it ends, fails or its client leaves.
 */
let t: TestApp;
let h: Hierarchy;
let base = '';

beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  for (const who of [h.r1, h.s1, h.u1, h.u2]) {
    const res = await postCredit(t, h.admin, creditBody(who.user.email, { count: 9 }));
    if (res.statusCode !== 201) throw new Error(`setup: ${res.statusCode} ${res.body}`);
  }
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const exportAs = (token: string) =>
  t.request({ method: 'GET', url: '/api/credits/history/export', token });

/** Running exports the database holds for a user. */
async function running(userId: string): Promise<number> {
  const row = await t.db
    .selectFrom('rate_limits')
    .select('hits')
    .where('key', '=', exportRunningKey(userId))
    .executeTakeFirst();
  return row?.hits ?? 0;
}

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Holds the ledger locked (ACCESS EXCLUSIVE) in an open transaction, so an export's batch
 * read waits: the export is then running, headers sent, until `unlock`.
 */
async function lockLedger() {
  let unlock!: () => void;
  const released = new Promise<void>((r) => (unlock = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const done = t.ownerDb.transaction().execute(async (tx) => {
    await sql`LOCK TABLE credit_transactions IN ACCESS EXCLUSIVE MODE`.execute(tx);
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    unlock();
    await done;
  };
}

describe('history export rate limit', () => {
  it('refuses the N+1-th export in the window with 429, Retry-After and its message', async () => {
    const { max } = RATE_LIMITS.historyExportPerUser;
    for (let i = 0; i < max; i++) {
      const res = await exportAs(h.u1.token);
      expect(res.statusCode, `export ${i + 1}`).toBe(200);
    }
    const refused = await exportAs(h.u1.token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: msg.historyExportTooMany });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['content-type']).toMatch(/json/);
    // Per user: another one still exports; a refusal took no running slot.
    expect((await exportAs(h.u2.token)).statusCode).toBe(200);
    expect(await running(h.u1.user.id)).toBe(0);
  });
});

describe('exports running at once', () => {
  it('answers 429 while another export of the user runs, and frees the slot at its end', async () => {
    const unlock = await lockLedger();
    let first: Promise<{ statusCode: number; rawPayload: Buffer }> | undefined;
    try {
      first = exportAs(h.s1.token);
      await until(async () => (await running(h.s1.user.id)) === HISTORY_EXPORTS_AT_ONCE, 'slot');
      const second = await exportAs(h.s1.token);
      expect(second.statusCode).toBe(429);
      expect(second.json()).toEqual({ message: msg.historyExportRunning });
      expect(second.headers['retry-after']).toBe(String(HISTORY_EXPORT_BUSY_RETRY_SECONDS));
      // Another user is not held back.
      await unlock();
      expect((await exportAs(h.u2.token)).statusCode).toBe(200);
    } finally {
      await unlock();
    }
    const done = await first!;
    expect(done.statusCode).toBe(200);
    expect(done.rawPayload.subarray(0, 2).toString()).toBe('PK');
    await until(async () => (await running(h.s1.user.id)) === 0, 'release after the end');
    expect((await exportAs(h.s1.token)).statusCode).toBe(200);
  });

  it('lets exactly HISTORY_EXPORTS_AT_ONCE of many parallel exports run', async () => {
    const unlock = await lockLedger();
    let results: { statusCode: number }[] = [];
    try {
      const all = Array.from({ length: 8 }, () => exportAs(h.r2.token));
      await until(async () => (await running(h.r2.user.id)) === HISTORY_EXPORTS_AT_ONCE, 'slot');
      // The refused ones answer at once, while the ledger is still locked.
      const refused = await Promise.all(
        all.map((p) => Promise.race([p, new Promise<null>((r) => setTimeout(r, 500, null))])),
      );
      expect(refused.filter((r) => r?.statusCode === 429)).toHaveLength(
        8 - HISTORY_EXPORTS_AT_ONCE,
      );
      await unlock();
      results = await Promise.all(all);
    } finally {
      await unlock();
    }
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(HISTORY_EXPORTS_AT_ONCE);
  });

  it('gives the slot back when the client leaves mid-export', async () => {
    const unlock = await lockLedger();
    try {
      const controller = new AbortController();
      const res = await fetch(`${base}/api/credits/history/export`, {
        headers: { authorization: `Bearer ${h.r1.token}` },
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      expect(await running(h.r1.user.id)).toBe(1);
      controller.abort();
      // Released on the abort itself, while the export still waits for the ledger.
      await until(async () => (await running(h.r1.user.id)) === 0, 'release after abort');
    } finally {
      await unlock();
    }
    const again = await fetch(`${base}/api/credits/history/export`, {
      headers: { authorization: `Bearer ${h.r1.token}` },
    });
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  });

  it('a slot a crashed instance left lapses after its lease', async () => {
    const release = await takeExportSlot(t.app.ctx, h.u2.user.id);
    expect((await exportAs(h.u2.token)).statusCode).toBe(429);
    await t.db
      .updateTable('rate_limits')
      .set({ window_start: sql`now() - interval '1 day'` })
      .where('key', '=', exportRunningKey(h.u2.user.id))
      .execute();
    expect((await exportAs(h.u2.token)).statusCode).toBe(200);
    await release();
    await release(); // a second call changes nothing
    expect(await running(h.u2.user.id)).toBe(0);
  });
});
