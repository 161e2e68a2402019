import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { CLEANUP_CONFIRM_WORD, server as msg, type CleanupReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import {
  creditBody,
  ledgerViolations,
  NORMAL,
  postCredit,
} from '../credits/credits.test-fixtures.js';
import { file, png, postCampaign } from '../campaigns/campaigns.test-fixtures.js';
import { attachment, openTicket } from '../tickets/tickets.test-fixtures.js';
import { keysUnder } from '../../../test/storage-fixtures.js';

/**
 * DELETE /api/data/cleanup (docs/product.md, Backup and storage): exactly the range goes,
 * every remaining balance stays what it was, Admins stay, a backup is saved first, files of
 * deleted campaigns and tickets leave the file store.
 */
let t: TestApp;
afterAll(() => t?.close());

const IN = new Date('2026-01-15T12:00:00Z');
const BEFORE = new Date('2025-12-01T12:00:00Z');
const AFTER = new Date('2026-03-01T12:00:00Z');
const RANGE = { fromDate: '2026-01-10', toDate: '2026-01-20' };

interface World {
  admin: string;
  adminId: string;
  reseller: { id: string; email: string; token: string };
  child: { id: string; email: string; token: string };
  user: { id: string; email: string; token: string };
}

async function as(token: string, role: 'Reseller' | 'Sub-Reseller' | 'User') {
  const u = await t.createUser(token, { role });
  return { id: u.user.id, email: u.user.email, token: u.token };
}

async function campaign(token: string): Promise<string> {
  const res = await postCampaign(
    t,
    token,
    { creditType: NORMAL, message: 'Hi', to: '9876543210, 9876543211' },
    [file('images', png(10, 10), 'pic.png')],
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ campaign: { _id: string } }>().campaign._id;
}

/** Moves ledger entries in time (the owner lifts the immutability trigger for the fixture). */
async function backdateEntries(where: string, at: Date) {
  await sql`ALTER TABLE credit_transactions DISABLE TRIGGER credit_transactions_immutable`.execute(
    t.ownerDb,
  );
  await sql`UPDATE credit_transactions SET created_at = ${at} WHERE ${sql.raw(where)}`.execute(
    t.ownerDb,
  );
  await sql`ALTER TABLE credit_transactions ENABLE TRIGGER credit_transactions_immutable`.execute(
    t.ownerDb,
  );
}

async function balances(): Promise<Map<string, number>> {
  const { rows } = await sql<{ k: string; b: string }>`
    SELECT user_id || '|' || credit_type AS k, balance AS b FROM credit_balances`.execute(t.db);
  return new Map(rows.map((r) => [r.k, Number(r.b)]));
}

async function count(table: string, where = 'true'): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${sql.raw(where)}`.execute(t.db);
  return Number(rows[0]!.n);
}

function cleanup(token: string, payload: object) {
  return t.request({
    method: 'DELETE',
    url: '/api/data/cleanup',
    token,
    payload: { confirm: CLEANUP_CONFIRM_WORD, ...payload },
  });
}

/** A fresh app: an Admin, a Reseller (created in the range) with a Sub-Reseller created after it, a User before it; credits moved at every time. */
async function world(): Promise<World> {
  await t?.close();
  t = await createTestApp();
  const admin = await t.adminToken();
  const adminId = (
    await t.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'Admin')
      .executeTakeFirstOrThrow()
  ).id;
  const reseller = await as(admin, 'Reseller');
  const child = await as(reseller.token, 'Sub-Reseller');
  const user = await as(admin, 'User');
  for (const who of [reseller, user]) {
    expect((await postCredit(t, admin, creditBody(who.email, { count: 100 }))).statusCode).toBe(
      201,
    );
  }
  // The reseller gives 30 to its child: a pair of entries.
  expect(
    (await postCredit(t, reseller.token, creditBody(child.email, { count: 30 }))).statusCode,
  ).toBe(201);
  await backdateEntries('true', BEFORE);
  // In the range: more credits for everyone, a removal and a transfer.
  for (const who of [reseller, user]) {
    expect((await postCredit(t, admin, creditBody(who.email, { count: 7 }))).statusCode).toBe(201);
  }
  expect(
    (await postCredit(t, admin, creditBody(user.email, { count: 3, type: 'Removed' }))).statusCode,
  ).toBe(201);
  expect(
    (await postCredit(t, reseller.token, creditBody(child.email, { count: 5 }))).statusCode,
  ).toBe(201);
  await backdateEntries(`created_at > '${BEFORE.toISOString()}'`, IN);
  // After the range.
  expect((await postCredit(t, admin, creditBody(user.email, { count: 11 }))).statusCode).toBe(201);
  await backdateEntries(`created_at > '${IN.toISOString()}'`, AFTER);

  await sql`UPDATE users SET created_at = ${BEFORE} WHERE role = 'Admin' OR id = ${user.id}`.execute(
    t.db,
  );
  await sql`UPDATE users SET created_at = ${IN} WHERE id = ${reseller.id}`.execute(t.db);
  await sql`UPDATE users SET created_at = ${AFTER} WHERE id = ${child.id}`.execute(t.db);
  return { admin, adminId, reseller, child, user };
}

describe('the ledger is immutable to the app role', () => {
  it('a direct DELETE fails even with herald.ledger_cleanup set; only ledger_cleanup deletes', async () => {
    await world();
    const before = await count('credit_transactions');
    await expect(
      t.db.transaction().execute(async (tx) => {
        await sql`SELECT set_config('herald.ledger_cleanup', 'on', true)`.execute(tx);
        await sql`DELETE FROM credit_transactions`.execute(tx);
      }),
    ).rejects.toThrow(/immutable/);
    expect(await count('credit_transactions')).toBe(before);
  });
});

describe('DELETE /api/data/cleanup', () => {
  it('both dates are required, with the contract’s message; nothing is deleted', async () => {
    const w = await world();
    for (const body of [{ dataType: 'users' }, { dataType: 'users', fromDate: '2026-01-01' }]) {
      const res = await cleanup(w.admin, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: "Please select both a 'from' and 'to' date for cleanup.",
      });
    }
    expect((await cleanup(w.admin, { ...RANGE, dataType: 'nope' })).statusCode).toBe(400);
    expect(await count('users')).toBe(4);
  });

  it('the typed confirmation is required in the body; without it nothing is deleted', async () => {
    const w = await world();
    for (const confirm of [undefined, '', 'delete', 'yes']) {
      const res = await cleanup(w.admin, { ...RANGE, dataType: 'users', confirm });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: msg.cleanupConfirmRequired });
    }
    expect(await count('users')).toBe(4);
  });

  it('transactions: exactly the range goes, a backup first, every balance kept by carry-forward entries', async () => {
    const w = await world();
    const before = await balances();
    const outside = await count('credit_transactions', `created_at <> '${IN.toISOString()}'`);
    const res = await cleanup(w.admin, { ...RANGE, dataType: 'transactions' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<CleanupReply>();
    // Two mints, a removal and a transfer pair.
    expect(body.deleted).toBe(5);
    expect(await t.app.ctx.files.stat(`backups/${body.backup}`)).not.toBeNull();
    expect(body.backup).toMatch(/-cleanup\.xlsx$/);

    expect(
      await count(
        'credit_transactions',
        `created_at = '${IN.toISOString()}' AND kind <> 'carry_forward'`,
      ),
    ).toBe(0);
    expect(await count('credit_transactions', `kind <> 'carry_forward'`)).toBe(outside);
    const carried = await sql<{ to_email: string; type: string; count: string; reason: string }>`
      SELECT to_email, type, count, reason FROM credit_transactions WHERE kind = 'carry_forward'
      ORDER BY to_email`.execute(t.db);
    expect(carried.rows.every((r) => r.reason === 'Opening balance carried forward')).toBe(true);
    // Reseller +7 -5, user +7 -3, child +5: one entry each.
    expect(carried.rows.map((r) => Number(r.count)).sort()).toEqual([2, 4, 5]);
    expect(await balances()).toEqual(before);
    expect(await ledgerViolations(t.db)).toEqual({
      balanceMismatch: [],
      negative: [],
      brokenGroups: [],
    });
  });

  it('campaigns: exactly the settled ones of the range go with their files; balances unchanged', async () => {
    const w = await world();
    const inRange = await campaign(w.user.token);
    const outRange = await campaign(w.user.token);
    await sql`UPDATE campaigns SET created_at = ${IN}, status = 'Rejected' WHERE id = ${inRange}`.execute(
      t.db,
    );
    await sql`UPDATE campaigns SET created_at = ${AFTER} WHERE id = ${outRange}`.execute(t.db);
    const campaignFiles = () => keysUnder(t.app.ctx.files, 'uploads/campaigns/');
    expect(await campaignFiles()).toHaveLength(2);
    const before = await balances();

    const res = await cleanup(w.admin, { ...RANGE, dataType: 'campaigns' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CleanupReply>().deleted).toBe(1);
    const left = await t.db.selectFrom('campaigns').select('id').execute();
    expect(left.map((c) => c.id)).toEqual([outRange]);
    expect(await count('campaign_recipients', `campaign_id = '${inRange}'`)).toBe(0);
    expect(await count('campaign_files', `campaign_id = '${inRange}'`)).toBe(0);
    expect(await campaignFiles()).toHaveLength(1);
    expect(await balances()).toEqual(before);
  });

  it('campaigns: one awaiting approval, sending or still settling is kept, and the reply says so', async () => {
    const w = await world();
    const waiting = await campaign(w.user.token);
    const sending = await campaign(w.user.token);
    const settling = await campaign(w.user.token);
    const done = await campaign(w.user.token);
    await sql`UPDATE campaigns SET created_at = ${IN}
      WHERE id IN (${waiting}, ${sending}, ${settling}, ${done})`.execute(t.db);
    await sql`UPDATE campaigns SET status = 'Processing', dispatch_state = 'running'
      WHERE id = ${sending}`.execute(t.db);
    await sql`UPDATE campaigns SET status = 'Cancelled', dispatch_state = 'cancelled',
      delivery_settled = false WHERE id = ${settling}`.execute(t.db);
    await sql`UPDATE campaigns SET status = 'Report Generated', dispatch_state = 'done',
      delivery_settled = true WHERE id = ${done}`.execute(t.db);

    const res = await cleanup(w.admin, { ...RANGE, dataType: 'campaigns' });
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json<CleanupReply>();
    expect(reply.deleted).toBe(1);
    expect(reply.message).toContain(
      '3 campaigns in the range still in progress were kept: their credits are not settled yet.',
    );
    const left = await t.db.selectFrom('campaigns').select('id').execute();
    expect(left.map((c) => c.id).sort()).toEqual([waiting, sending, settling].sort());
  });

  it('users: those created in the range go with their campaigns, tickets and entries; Admins stay; balances of the others kept', async () => {
    const w = await world();
    // An Admin created in the range is never deleted.
    await sql`UPDATE users SET created_at = ${IN} WHERE id = ${w.adminId}`.execute(t.db);
    // The reseller's campaign and ticket (with a file), and the user's, which stay.
    await campaign(w.reseller.token);
    await openTicket(t, w.reseller.token, {}, [attachment(Buffer.from('x'), 'a.txt')]);
    const keptCampaign = await campaign(w.user.token);
    const keptTicket = await openTicket(t, w.user.token);
    const before = await balances();

    const res = await cleanup(w.admin, { ...RANGE, dataType: 'users' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CleanupReply>().deleted).toBe(1);

    const left = await t.db.selectFrom('users').select(['id', 'created_by', 'ancestors']).execute();
    expect(left.map((u) => u.id).sort()).toEqual([w.adminId, w.child.id, w.user.id].sort());
    // The child moved under the reseller's creator.
    const child = left.find((u) => u.id === w.child.id)!;
    expect(child.created_by).toBe(w.adminId);
    expect(child.ancestors).toEqual([w.adminId]);
    expect(
      await count('campaigns', `user_id = '${w.reseller.id}' OR created_by = '${w.reseller.id}'`),
    ).toBe(0);
    expect(await count('tickets', `user_id = '${w.reseller.id}'`)).toBe(0);
    expect(
      await count(
        'credit_transactions',
        `to_user_id = '${w.reseller.id}' OR by_user_id = '${w.reseller.id}'`,
      ),
    ).toBe(0);
    expect((await t.db.selectFrom('campaigns').select('id').execute()).map((c) => c.id)).toEqual([
      keptCampaign,
    ]);
    expect((await t.db.selectFrom('tickets').select('id').execute()).map((c) => c.id)).toEqual([
      keptTicket._id,
    ]);
    expect(await keysUnder(t.app.ctx.files, 'uploads/campaigns/')).toHaveLength(1);
    expect(await keysUnder(t.app.ctx.files, 'uploads/tickets/')).toHaveLength(0);

    const after = await balances();
    for (const [key, value] of before) {
      if (key.startsWith(w.reseller.id)) continue;
      expect(after.get(key), key).toBe(value);
    }
    expect([...after.keys()].some((k) => k.startsWith(w.reseller.id))).toBe(false);
    expect(await ledgerViolations(t.db)).toEqual({
      balanceMismatch: [],
      negative: [],
      brokenGroups: [],
    });
    // The child's balance (given by the deleted reseller) is carried forward.
    expect(after.get(`${w.child.id}|${NORMAL}`)).toBe(35);
  });
});
