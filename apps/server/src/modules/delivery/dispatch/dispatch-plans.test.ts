import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import type { Tx } from '../../../db/database.js';
import { claimBatchIn, writeResults, type SendResult } from './dispatch.repo.js';
import { phones, recipientTableStats, startedCampaign } from './dispatch.test-fixtures.js';

/**
 * The dispatcher's statements touch the rows they claim and write, not the rest of the
 * campaign, even when the campaign's rows are new to the planner (no ANALYZE since they were
 * inserted, the usual case when a campaign is approved soon after it was created). Counted with
 * pg_stat_xact_user_tables: rows the transaction read from campaign_recipients, by any scan.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  admin = await t.adminToken();
});
afterAll(() => t.close());

const RECIPIENTS = 20_000;
const BATCH = 50;

const rowsRead = async (tx: Tx) => (await recipientTableStats(tx)).read;

describe('dispatch statements on a campaign the planner has no statistics for', () => {
  it('a claim and the write of its answers read about the batch, not the campaign', async () => {
    const id = await startedCampaign(t, admin, phones(RECIPIENTS, 70_000));
    const claimed = await t.db.transaction().execute(async (tx) => {
      // Past the first rows: the cursor is in the middle of the campaign.
      await sql`UPDATE campaigns SET dispatch_cursor = ${phones(1, 70_000 + RECIPIENTS / 2)[0]!}
                 WHERE id = ${id}::uuid`.execute(tx);
      const before = await rowsRead(tx);
      const claim = await claimBatchIn(tx, id, BATCH, 1); // a presence key
      const read = (await rowsRead(tx)) - before;
      if (claim.stopped) throw new Error('stopped');
      expect(claim.rows).toHaveLength(BATCH);
      expect(read).toBeLessThan(BATCH * 4);
      return claim.rows;
    });

    await t.db.transaction().execute(async (tx) => {
      const results: SendResult[] = claimed.map((r, i) => ({
        phone: r.phone,
        attempts: r.attempts,
        state: 'sent',
        providerMessageId: `pm-${i}`,
      }));
      const before = await rowsRead(tx);
      await writeResults(tx, id, results);
      expect((await rowsRead(tx)) - before).toBeLessThan(BATCH * 4);
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM campaign_recipients
         WHERE campaign_id = ${id}::uuid AND state = 'sent'`.execute(tx);
      expect(rows[0]!.n).toBe(BATCH);
    });
  });

  it('a claim reads about the batch of a long suppression list, and opts out the listed', async () => {
    const to = phones(RECIPIENTS, 100_000);
    const id = await startedCampaign(t, admin, to);
    const { user_id: owner } = await t.db
      .selectFrom('campaigns')
      .select('user_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // 50,000 numbers of the owner's list no campaign holds, and 5 of the first batch.
    await sql`INSERT INTO suppressions (owner_id, phone, source)
      SELECT ${owner}::uuid, '97' || lpad(g::text, 8, '0'), 'import'
        FROM generate_series(1, 50000) g`.execute(t.ownerDb);
    await sql`INSERT INTO suppressions (owner_id, phone, source)
      SELECT ${owner}::uuid, unnest(${to.slice(0, 5)}::text[]), 'manual'`.execute(t.ownerDb);
    await t.db.transaction().execute(async (tx) => {
      const before = await suppressionsRead(tx);
      const claim = await claimBatchIn(tx, id, BATCH, 1);
      if (claim.stopped) throw new Error('stopped');
      expect(claim.optedOut).toBe(5);
      expect(claim.rows).toHaveLength(BATCH - 5);
      expect((await suppressionsRead(tx)) - before).toBeLessThan(BATCH * 4);
    });
  });
});

/** Rows this transaction read from suppressions so far, by any scan. */
async function suppressionsRead(tx: Tx): Promise<number> {
  const { rows } = await sql<{ read: number }>`
    SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS read
      FROM pg_stat_xact_user_tables WHERE relname = 'suppressions'`.execute(tx);
  return rows[0]?.read ?? 0;
}
