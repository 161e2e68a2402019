import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { openDatabase, type DatabaseHandle } from '../../db/database.js';
import { claimBatch, writeResults, type SendResult } from './dispatch/dispatch.repo.js';
import { phones, startedCampaign } from './dispatch/dispatch.test-fixtures.js';
import { runFinalize } from './settle/finalize.js';
import { applyStatusBatch, type RecipientEvent } from './status/status.repo.js';
import { counters, setDispatch } from './status/status.test-fixtures.js';

/**
 * The engine's counter shards (counter-shards.sql.ts, migration 23): result writes and status
 * batches add to shards without waiting for the campaign row's lock, and a settlement folds the
 * shards into the row.
 */

let t: TestApp;
let admin: string;
let other: DatabaseHandle;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  admin = await t.adminToken();
  other = openDatabase(t.app.ctx.databaseUrl, 2);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

/** A presence key for the claims (no session holds it; nothing here gives dead keys' rows back). */
const KEY = 1;

const sent = (phone: string): SendResult => ({
  phone,
  attempts: 1,
  state: 'sent',
  providerMessageId: `pm-${phone}`,
});

const event = (campaignId: string, phone: string, state: RecipientEvent['state']) =>
  ({
    campaignId,
    phone,
    state,
    at: new Date(),
    providerMessageId: `pm-${phone}`,
    errorCode: null,
    errorText: null,
  }) satisfies RecipientEvent;

async function shardRows(id: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM campaign_delivery_counts WHERE campaign_id = ${id}::uuid`.execute(
    t.ownerDb,
  );
  return rows[0]!.n;
}

describe("the engine's delivery counters", () => {
  it('a result write and a status batch do not wait while a claim holds the campaign row', async () => {
    const to = phones(3, 31_000);
    const [p0, p1, p2] = to as [string, string, string];
    const id = await startedCampaign(t, admin, to);
    const claim = await claimBatch(t.db, id, 3, KEY);
    expect(claim.stopped).toBe(false);
    await other.db.transaction().execute(async (hold) => {
      // As a claim of another instance holds it for its statement.
      await sql`SELECT 1 FROM campaigns WHERE id = ${id}::uuid FOR NO KEY UPDATE`.execute(hold);
      await t.db.transaction().execute(async (tx) => {
        // Waiting for the holder would end here with an error, not pass late.
        await sql`SET LOCAL lock_timeout = '5s'`.execute(tx);
        await writeResults(tx, id, [
          sent(p0),
          sent(p1),
          { phone: p2, attempts: 1, state: 'failed', code: '131026', text: 'Undeliverable' },
        ]);
        await applyStatusBatch(tx, [event(id, p0, 'delivered'), event(id, p1, 'read')]);
      });
    });
    expect(await counters(t, id)).toEqual({ sent: 0, delivered: 1, read: 1, failed: 1 });
  });

  it('settling a campaign folds its shards into its row; later events open shards again', async () => {
    const to = phones(3, 32_000);
    const [p0, p1, p2] = to as [string, string, string];
    const id = await startedCampaign(t, admin, to);
    await claimBatch(t.db, id, 3, KEY);
    await writeResults(t.db, id, to.map(sent));
    await applyStatusBatch(t.db, [event(id, p0, 'delivered'), event(id, p1, 'delivered')]);
    await applyStatusBatch(t.db, [event(id, p2, 'failed')]);
    expect(await shardRows(id)).toBeGreaterThan(0);
    await setDispatch(t, id, 'Processing', 'done');

    await runFinalize(t.app.ctx, id);
    expect(await shardRows(id)).toBe(0);
    const row = await t.ownerDb
      .selectFrom('campaigns')
      .select(['sent_count', 'delivered_count', 'read_count', 'failed_count', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      sent_count: 0,
      delivered_count: 2,
      read_count: 0,
      failed_count: 1,
      status: 'Report Generated',
    });

    await applyStatusBatch(t.db, [event(id, p0, 'read')]);
    expect(await shardRows(id)).toBe(1);
    expect(await counters(t, id)).toEqual({ sent: 0, delivered: 1, read: 1, failed: 1 });
  });
});
