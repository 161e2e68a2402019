import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { openDatabase, type DatabaseHandle, type Db } from '../../../db/database.js';
import { claimBatch, claimBatchIn, writeResults } from './dispatch.repo.js';
import { DispatchPresence } from './presence.js';
import { releaseOrphans } from './dispatch-progress.repo.js';
import { applyStatusBatch } from '../status/status.repo.js';
import {
  campaignOf,
  phones,
  recipientTableStats,
  recipientsOf,
  startedCampaign,
} from './dispatch.test-fixtures.js';

let t: TestApp;
let admin: string;
let other: DatabaseHandle;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  admin = await t.adminToken();
  other = openDatabase(t.app.ctx.databaseUrl, 4);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

/** A presence key no session holds, for tests that never give dead keys' rows back. */
const KEY = 1;

/** A session holding a live key, and a key no session holds (a killed instance's). */
async function liveAndDeadKeys() {
  const presence = new DispatchPresence(t.app.ctx.databaseUrl);
  const live = await presence.enter();
  return { presence, live, dead: live === 1 ? 2 : live - 1 };
}

/** Claims batches until a claim comes back empty; returns every phone it got. */
async function claimAll(db: Db, id: string, batch: number, key: number): Promise<string[]> {
  const got: string[] = [];
  for (;;) {
    const c = await claimBatch(db, id, batch, key);
    if (c.stopped) throw new Error('stopped');
    if (c.rows.length === 0) return got;
    got.push(...c.rows.map((r) => r.phone));
  }
}

describe('claiming recipients', () => {
  it('two instances claiming one campaign at once get every number exactly once', async () => {
    const to = phones(1000);
    const id = await startedCampaign(t, admin, to);
    const [a, b] = await Promise.all([claimAll(t.db, id, 37, 1), claimAll(other.db, id, 41, 2)]);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    const all = [...a, ...b];
    expect(all).toHaveLength(1000);
    expect(new Set(all).size).toBe(1000);
    const rows = await recipientsOf(t, id);
    expect(rows.every((r) => r.state === 'sending' && r.attempts === 1)).toBe(true);
    const cursor = await t.db
      .selectFrom('campaigns')
      .select('dispatch_cursor')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(cursor.dispatch_cursor).toBe(to.at(-1));
  });

  it('claims due retries and rows given back, never a row in flight', async () => {
    const to = phones(6, 5000);
    const id = await startedCampaign(t, admin, to);
    const first = await claimBatch(t.db, id, 6, KEY);
    expect(first.stopped).toBe(false);
    // [0] waits for a retry later, [1] is due, [2] was given back from a dead instance (as
    // releaseOrphans does: still sending, due); [3..5] are in flight.
    await writeResults(t.db, id, [
      {
        phone: to[0]!,
        attempts: 1,
        state: 'queued',
        code: '500',
        text: 'x',
        counted: true,
        retryAt: new Date(Date.now() + 60_000),
      },
      {
        phone: to[1]!,
        attempts: 1,
        state: 'queued',
        code: '500',
        text: 'x',
        counted: true,
        retryAt: new Date(Date.now() - 1000),
      },
    ]);
    await sql`UPDATE campaign_recipients SET state_at = now() - interval '2 minutes',
                next_attempt_at = now() - interval '1 minute'
              WHERE campaign_id = ${id}::uuid AND phone = ${to[2]!}`.execute(t.db);
    const again = await claimBatch(t.db, id, 10, KEY);
    expect(again.stopped).toBe(false);
    if (again.stopped) return;
    // (RETURNING has no order: the set is what counts.)
    expect([...again.rows].sort((a, b) => a.phone.localeCompare(b.phone))).toEqual([
      { phone: to[1]!, attempts: 2 },
      { phone: to[2]!, attempts: 2 },
    ]);
    // A claimed row holds no lease: no due time, its key's until the key is gone.
    const inFlight = (await recipientsOf(t, id)).filter((r) => r.state === 'sending');
    expect(inFlight).toHaveLength(5);
    expect(inFlight.every((r) => r.next_attempt_at === null)).toBe(true);
  });

  it('a sent message delivered and read is updated in place (HOT): no index entry per event', async () => {
    const to = phones(8, 11_000);
    const id = await startedCampaign(t, admin, to);
    await claimBatch(t.db, id, 8, KEY);
    await writeResults(
      t.db,
      id,
      to.map((phone) => ({ phone, attempts: 1, state: 'sent' as const, providerMessageId: phone })),
    );
    const at = new Date();
    const events = (state: 'delivered' | 'read') =>
      to.map((phone) => ({
        campaignId: id,
        phone,
        state,
        at,
        providerMessageId: null,
        errorCode: null,
        errorText: null,
      }));
    // Each batch in its own transaction, counted by this backend's statistics before and after.
    const updatesOf = (state: 'delivered' | 'read') =>
      t.db.transaction().execute(async (tx) => {
        const before = await recipientTableStats(tx);
        await applyStatusBatch(tx, events(state));
        const after = await recipientTableStats(tx);
        return { upd: after.upd - before.upd, hot: after.hot - before.hot };
      });
    expect(await updatesOf('delivered')).toEqual({ upd: to.length, hot: to.length });
    expect(await updatesOf('read')).toEqual({ upd: to.length, hot: to.length });
    expect((await recipientsOf(t, id)).every((r) => r.state === 'read')).toBe(true);
  });

  it('a first claim and its sent answer are updated in place (HOT)', async () => {
    // Counted by this backend's statistics inside one transaction: other tests' updates are not.
    const claimAndSend = (id: string, to: string[], key: number) =>
      t.db.transaction().execute(async (tx) => {
        const before = await recipientTableStats(tx);
        const claim = await claimBatchIn(tx, id, to.length, key);
        if (claim.stopped) throw new Error('stopped');
        expect(claim.rows).toHaveLength(to.length);
        await writeResults(
          tx,
          id,
          to.map((phone) => ({
            phone,
            attempts: 1,
            state: 'sent' as const,
            providerMessageId: phone,
          })),
        );
        const after = await recipientTableStats(tx);
        return { upd: after.upd - before.upd, hot: after.hot - before.hot };
      });
    const keyed = phones(8, 12_000);
    const keyedId = await startedCampaign(t, admin, keyed);
    expect(await claimAndSend(keyedId, keyed, 4242)).toEqual({ upd: 16, hot: 16 });
    // Its claim is on record for as long as rows of the key may be in flight.
    const { rows } = await sql<{ key: number }>`
      SELECT key FROM dispatch_claimers WHERE campaign_id = ${keyedId}::uuid`.execute(t.db);
    expect(rows).toEqual([{ key: 4242 }]);
    expect((await recipientsOf(t, keyedId)).every((r) => r.state === 'sent')).toBe(true);
  });

  it('writes a batch once: a result for a row already moved on, or re-claimed, changes nothing', async () => {
    const to = phones(4, 7000);
    const id = await startedCampaign(t, admin, to);
    await claimBatch(t.db, id, 4, KEY);
    const results = [
      { phone: to[0]!, attempts: 1, state: 'sent' as const, providerMessageId: 'p0' },
      {
        phone: to[1]!,
        attempts: 1,
        state: 'failed' as const,
        code: '131026',
        text: 'Undeliverable',
      },
      // A status event already moved this one to delivered.
      { phone: to[2]!, attempts: 1, state: 'sent' as const, providerMessageId: 'p2' },
      // Claimed again after its key was given up: this stale answer is attempt 1, the row is at 2.
      { phone: to[3]!, attempts: 1, state: 'sent' as const, providerMessageId: 'p3' },
    ];
    await sql`UPDATE campaign_recipients SET state = 'delivered'
              WHERE campaign_id = ${id}::uuid AND phone = ${to[2]!}`.execute(t.db);
    await sql`UPDATE campaign_recipients SET attempts = 2
              WHERE campaign_id = ${id}::uuid AND phone = ${to[3]!}`.execute(t.db);
    await writeResults(t.db, id, results);
    await writeResults(t.db, id, results);
    const rows = await recipientsOf(t, id);
    expect(rows.map((r) => [r.state, r.provider_message_id, r.error_code])).toEqual([
      ['sent', 'p0', null],
      ['failed', null, '131026'],
      ['delivered', null, null],
      ['sending', null, null],
    ]);
    expect(await campaignOf(t, id)).toMatchObject({ sent_count: 1, failed_count: 1 });
  });

  it('claims nothing once the campaign is paused', async () => {
    const id = await startedCampaign(t, admin, phones(3, 9000));
    await t.db
      .updateTable('campaigns')
      .set({ dispatch_state: 'paused' })
      .where('id', '=', id)
      .execute();
    expect(await claimBatch(t.db, id, 3, KEY)).toEqual({ stopped: true });
    const rows = await recipientsOf(t, id);
    expect(rows.every((r) => r.state === null)).toBe(true);
  });

  it('a claim waiting behind a pause (the campaign row lock) claims nothing once it commits', async () => {
    const id = await startedCampaign(t, admin, phones(3, 13_000));
    // A pause as dispatch-control takes it: the campaign's row lock, then the state.
    const pausing = await other.pool.connect();
    try {
      await pausing.query('BEGIN');
      await pausing.query('SELECT id FROM campaigns WHERE id = $1 FOR UPDATE', [id]);
      await pausing.query(`UPDATE campaigns SET dispatch_state = 'paused' WHERE id = $1`, [id]);
      const claim = claimBatch(t.db, id, 3, KEY);
      // The claim started before the pause committed: it waits for the lock.
      for (let waiting = false; !waiting;) {
        const { rows } = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND query LIKE '%WITH camp AS%'`.execute(t.db);
        waiting = (rows[0]?.n ?? 0) > 0;
      }
      await pausing.query('COMMIT');
      expect(await claim).toEqual({ stopped: true });
    } finally {
      pausing.release();
    }
    expect((await recipientsOf(t, id)).every((r) => r.state === null)).toBe(true);
  });

  it("a key's claims leave the record when its session closes with every row written, else its rows come back", async () => {
    const to = phones(4, 16_000);
    const id = await startedCampaign(t, admin, to);
    const claimers = async () =>
      (
        await sql<{ key: number }>`
          SELECT key FROM dispatch_claimers WHERE campaign_id = ${id}::uuid`.execute(t.db)
      ).rows.map((r) => r.key);
    const presence = new DispatchPresence(t.app.ctx.databaseUrl);

    const written = await presence.enter();
    const first = await claimBatch(t.db, id, 2, written);
    if (first.stopped) throw new Error('stopped');
    await writeResults(
      t.db,
      id,
      first.rows.map((r) => ({ ...r, state: 'sent' as const, providerMessageId: r.phone })),
    );
    expect(await claimers()).toEqual([written]);
    await presence.leave(true);
    expect(await claimers()).toEqual([]);
    expect(await releaseOrphans(t.db, id)).toEqual([]);

    const unwritten = await presence.enter();
    const second = await claimBatch(t.db, id, 2, unwritten);
    if (second.stopped) throw new Error('stopped');
    const inFlight = (await recipientsOf(t, id)).filter((r) => r.state === 'sending');
    expect(inFlight.map((r) => [r.phone, r.next_attempt_at])).toEqual(
      second.rows.map((r) => [r.phone, null]),
    );
    await presence.leave(false);
    expect(await claimers()).toEqual([unwritten]);
    expect(await releaseOrphans(t.db, id)).toEqual([id]);
    expect(await claimers()).toEqual([]);
    const back = (await recipientsOf(t, id)).filter((r) => r.state === 'sending');
    expect(back.map((r) => r.phone)).toEqual(second.rows.map((r) => r.phone));
    expect(back.every((r) => r.next_attempt_at !== null && r.next_attempt_at <= new Date())).toBe(
      true,
    );
  });

  it('answers a campaign a dead key was sending even with nothing of it in flight, once', async () => {
    const to = phones(2, 17_000);
    const id = await startedCampaign(t, admin, to);
    const { presence, dead } = await liveAndDeadKeys();
    const claim = await claimBatch(t.db, id, 2, dead);
    if (claim.stopped) throw new Error('stopped');
    await writeResults(
      t.db,
      id,
      claim.rows.map((r) => ({ ...r, state: 'sent' as const, providerMessageId: r.phone })),
    );
    // Its slice job may be held by its dead worker: the watchdog gives the campaign jobs now.
    expect(await releaseOrphans(t.db, id)).toEqual([id]);
    expect(await releaseOrphans(t.db, id)).toEqual([]);
    expect((await recipientsOf(t, id)).every((r) => r.state === 'sent')).toBe(true);
    await presence.leave(true);
  });

  it('gives back at once the rows of a key no session holds, never those of a live one', async () => {
    const to = phones(6, 15_000);
    const id = await startedCampaign(t, admin, to);
    const { presence, live, dead } = await liveAndDeadKeys();
    const mine = await claimBatch(t.db, id, 2, live);
    const theirs = await claimBatch(t.db, id, 2, dead);
    expect([mine.stopped, theirs.stopped]).toEqual([false, false]);

    expect(await releaseOrphans(t.db, id)).toEqual([id]);
    expect(await releaseOrphans(t.db, id)).toEqual([]); // given back once
    // The dead instance's two come first, then the first pass goes on; the live ones stay.
    const next = await claimBatch(t.db, id, 10, live);
    if (next.stopped || theirs.stopped || mine.stopped) throw new Error('stopped');
    const byPhone = (a: { phone: string }, b: { phone: string }) => a.phone.localeCompare(b.phone);
    expect(next.rows.slice(0, 2).sort(byPhone)).toEqual(
      theirs.rows.map((r) => ({ ...r, attempts: 2 })).sort(byPhone),
    );
    expect(next.rows.slice(2).map((r) => r.phone)).toEqual(to.slice(4));

    // The instance leaves (or dies): everything it held is due again.
    await presence.leave();
    expect(presence.holds(live)).toBe(false);
    expect(await releaseOrphans(t.db, id)).toEqual([id]);
    const rows = await recipientsOf(t, id);
    expect(rows.every((r) => r.state === 'sending' && r.next_attempt_at! <= new Date())).toBe(true);
  });
});
