import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateCampaignReply, CreditType } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { fund, postCampaign } from './campaigns.test-fixtures.js';
import { insertCampaign, insertRecipients } from './campaigns.repo.js';
import { scanRecipients } from './recipient-scan.js';

/**
 * campaign_recipients has no foreign key to campaigns (migration 0007): however campaigns
 * are removed, no recipient row may outlive its campaign.
 */

const NORMAL: CreditType = 'Normal Message - domestic';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 1_000);
});
afterAll(() => t.close());

async function create(to: string): Promise<string> {
  const res = await postCampaign(t, h.u1.token, { creditType: NORMAL, message: 'Hi', to });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreateCampaignReply>().campaign._id;
}

async function recipientsOf(id: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM campaign_recipients WHERE campaign_id = ${id}::uuid`.execute(t.db);
  return Number(rows[0]?.n);
}

async function orphans(): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM campaign_recipients r
    WHERE NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.id = r.campaign_id)`.execute(t.db);
  return Number(rows[0]?.n);
}

describe('campaign recipients without a foreign key', () => {
  it('has no foreign key: its per-row check would dominate a large ingest', async () => {
    const { rows } = await sql<{ name: string }>`
      SELECT conname AS name FROM pg_constraint
      WHERE conrelid = 'campaign_recipients'::regclass AND contype = 'f'`.execute(t.db);
    expect(rows).toEqual([]);
  });

  it('deleting campaigns, several in one statement, removes exactly their recipients', async () => {
    const a = await create('5550000001,5550000002,5550000003');
    const b = await create('5550000004,5550000005');
    const kept = await create('5550000006,5550000007');
    await t.db.deleteFrom('campaigns').where('id', 'in', [a, b]).execute();
    expect([await recipientsOf(a), await recipientsOf(b)]).toEqual([0, 0]);
    expect(await recipientsOf(kept)).toBe(2);
    expect(await orphans()).toBe(0);
  });

  it("deleting the owner's user row cascades to the campaign and its recipients", async () => {
    const owner = await t.createUser(h.admin, { role: 'User' });
    const id = await t.db.transaction().execute(async (tx) => {
      const row = await insertCampaign(tx, {
        user_id: owner.user.id,
        created_by: owner.user.id,
        credit_type: NORMAL,
        message: 'Hi',
        recipient_count: 2,
        charged_count: 0,
      });
      await insertRecipients(tx, row.id, scanRecipients('5550000008 5550000009').keys);
      return row.id;
    });
    expect(await recipientsOf(id)).toBe(2);
    await t.db.deleteFrom('users').where('id', '=', owner.user.id).execute();
    expect(await recipientsOf(id)).toBe(0);
    expect(await orphans()).toBe(0);
  });

  it('truncating campaigns truncates the recipients too', async () => {
    await create('5550000010');
    // The app's role may not TRUNCATE (docs/operations.md): the owner does, as an operator would.
    await sql`TRUNCATE campaigns CASCADE`.execute(t.ownerDb);
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM campaign_recipients`.execute(t.db);
    expect(Number(rows[0]?.n)).toBe(0);
  });
});
