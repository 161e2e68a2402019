import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type CreateCreditReply } from '@herald/contract';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, formOf, multipart, type Hierarchy } from '../users/test-fixtures.js';
import {
  DP,
  NORMAL,
  balanceOf,
  countEntries,
  creditBody,
  ledgerViolations,
  postCredit,
} from './credits.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const reply = (res: { json: <T>() => T }) => res.json<CreateCreditReply>();

describe('POST /api/credits as Admin', () => {
  it('mints: one Added entry with snapshot names and exact money (3 × 0.29 = 0.87)', async () => {
    const res = await postCredit(t, h.admin, creditBody(h.u3.user.email, { count: 3, rate: 0.29 }));
    expect(res.statusCode).toBe(201);
    const body = reply(res);
    expect(body.message).toBe(msg.creditDone);
    expect(body.transactions).toEqual([
      {
        _id: expect.any(String),
        id: body.transactions[0]!._id,
        to: h.u3.user.email,
        toName: 'U3',
        by: ADMIN_EMAIL,
        byName: 'Administrator',
        type: 'Added',
        creditType: NORMAL,
        count: 3,
        rate: 0.29,
        totalAmount: 0.87,
        reason: null,
        createdAt: expect.any(String),
      },
    ]);
    expect(await balanceOf(t.db, h.u3.user.id)).toBe(3);
  });

  it('keeps money exact: 3 × 0.1 = 0.3, a string rate and a zero rate', async () => {
    const cases: [unknown, number][] = [
      [0.1, 0.3],
      ['12.50', 37.5],
      [0, 0],
    ];
    for (const [rate, total] of cases) {
      const res = await postCredit(t, h.admin, creditBody(h.u3.user.email, { count: 3, rate }));
      expect(res.statusCode).toBe(201);
      expect(reply(res).transactions[0]).toMatchObject({ totalAmount: total });
    }
  });

  it('burns from a user, never below zero (409 writes nothing)', async () => {
    const before = await balanceOf(t.db, h.u3.user.id);
    const res = await postCredit(
      t,
      h.admin,
      creditBody(h.u3.user.email, { type: 'Removed', count: 2, reason: 'Correction' }),
    );
    expect(res.statusCode).toBe(201);
    expect(reply(res).transactions).toMatchObject([
      { type: 'Removed', count: 2, reason: 'Correction', by: ADMIN_EMAIL },
    ]);
    expect(await balanceOf(t.db, h.u3.user.id)).toBe(before - 2);

    const entries = await countEntries(t.db);
    const over = await postCredit(
      t,
      h.admin,
      creditBody(h.u3.user.email, { type: 'Removed', count: before - 1 }),
    );
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({ message: msg.insufficientCredits });
    expect(await balanceOf(t.db, h.u3.user.id)).toBe(before - 2);
    expect(await countEntries(t.db)).toBe(entries);
    // A credit type the user never held has no balance row at all.
    const none = await postCredit(
      t,
      h.admin,
      creditBody(h.u3.user.email, { type: 'Removed', count: 1, creditType: DP }),
    );
    expect(none.statusCode).toBe(409);
  });
});

describe('POST /api/credits as Reseller and Sub-Reseller', () => {
  beforeAll(async () => {
    const mint = await postCredit(t, h.admin, creditBody(h.r1.user.email, { count: 50 }));
    expect(mint.statusCode).toBe(201);
  });

  it("transfers from its own balance: the user's Added and its own Removed, one group", async () => {
    const res = await postCredit(
      t,
      h.r1.token,
      creditBody(h.u2.user.email, { count: 20, rate: 0.5, reason: 'Welcome' }),
    );
    expect(res.statusCode).toBe(201);
    const [toUser, fromMe] = reply(res).transactions;
    expect(toUser).toMatchObject({
      to: h.u2.user.email,
      by: h.r1.user.email,
      type: 'Added',
      count: 20,
      rate: 0.5,
      totalAmount: 10,
      reason: 'Welcome',
    });
    expect(fromMe).toMatchObject({
      to: h.r1.user.email,
      toName: 'R1',
      by: h.r1.user.email,
      type: 'Removed',
      count: 20,
      totalAmount: 10,
      reason: `Transfer to ${h.u2.user.email}`,
    });
    expect(await balanceOf(t.db, h.r1.user.id)).toBe(30);
    expect(await balanceOf(t.db, h.u2.user.id)).toBe(20);
    const rows = await t.db
      .selectFrom('credit_transactions')
      .select(['group_id', 'kind'])
      .where('id', 'in', [toUser!.id, fromMe!.id])
      .orderBy('kind')
      .execute();
    expect(rows.map((r) => r.kind)).toEqual(['transfer_in', 'transfer_out']);
    expect(rows[0]!.group_id).toBe(rows[1]!.group_id);
  });

  it("takes credits back: the user's Removed and its own Added 'Returned from'", async () => {
    const res = await postCredit(
      t,
      h.r1.token,
      creditBody(h.u2.user.email, { type: 'Removed', count: 5 }),
    );
    expect(res.statusCode).toBe(201);
    expect(reply(res).transactions).toMatchObject([
      { to: h.u2.user.email, type: 'Removed', count: 5, reason: null },
      { to: h.r1.user.email, type: 'Added', count: 5, reason: `Returned from ${h.u2.user.email}` },
    ]);
    expect(await balanceOf(t.db, h.r1.user.id)).toBe(35);
    expect(await balanceOf(t.db, h.u2.user.id)).toBe(15);
  });

  it('lets a Sub-Reseller pass on what its Reseller gave it', async () => {
    expect(
      (await postCredit(t, h.r1.token, creditBody(h.s1.user.email, { count: 10 }))).statusCode,
    ).toBe(201);
    const res = await postCredit(t, h.s1.token, creditBody(h.u1.user.email, { count: 4 }));
    expect(res.statusCode).toBe(201);
    expect(await balanceOf(t.db, h.s1.user.id)).toBe(6);
    expect(await balanceOf(t.db, h.u1.user.id)).toBe(4);
  });

  it('answers 409 when short, on either side, and writes nothing', async () => {
    const entries = await countEntries(t.db);
    const give = await postCredit(t, h.r1.token, creditBody(h.u2.user.email, { count: 1000 }));
    expect(give.statusCode).toBe(409);
    expect(give.json()).toEqual({ message: msg.insufficientCredits });
    const take = await postCredit(
      t,
      h.r1.token,
      creditBody(h.u2.user.email, { type: 'Removed', count: 16 }),
    );
    expect(take.statusCode).toBe(409);
    expect(take.json()).toEqual({ message: msg.insufficientCredits });
    expect(await countEntries(t.db)).toBe(entries);
    expect(await balanceOf(t.db, h.r1.user.id)).toBe(25);
    expect(await balanceOf(t.db, h.u2.user.id)).toBe(15);
    expect(await ledgerViolations(t.db)).toEqual({
      balanceMismatch: [],
      negative: [],
      brokenGroups: [],
    });
  });
});

describe('POST /api/credits refusals', () => {
  it('answers 400 with the exact message for each bad field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ count: 0 }, 'Count must be at least 1.'],
      [{ count: -1 }, 'Count must be at least 1.'],
      [{ count: 1.5 }, 'Count must be a whole number.'],
      [{ count: '3' }, 'Count is required.'],
      [{ count: 10_000_001 }, 'Count must be at most 10000000.'],
      [{ rate: 0.291 }, 'Rate must be an amount in rupees with at most 2 decimals, up to 100000.'],
      [{ rate: -1 }, 'Rate must be an amount in rupees with at most 2 decimals, up to 100000.'],
      [{ rate: null }, 'Rate is required.'],
      [{ creditType: 'Carrier pigeon' }, 'Choose a credit type.'],
      [{ type: 'Gifted' }, 'Choose Added or Removed.'],
      [{ to: 'not-an-email' }, 'Enter a valid email address.'],
    ];
    const entries = await countEntries(t.db);
    for (const [over, message] of cases) {
      const res = await postCredit(t, h.admin, creditBody(h.u3.user.email, over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    expect(await countEntries(t.db)).toBe(entries);
  });

  it('answers 400 to credits for oneself', async () => {
    for (const [token, email] of [
      [h.admin, ADMIN_EMAIL],
      [h.r1.token, h.r1.user.email.toUpperCase()],
    ] as const) {
      const res = await postCredit(t, token, creditBody(email));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: msg.creditToSelf });
    }
  });

  it('answers 401 without a token and 403 to a User', async () => {
    const anon = await postCredit(t, undefined, creditBody(h.u1.user.email));
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ message: msg.notLoggedIn });
    const user = await postCredit(t, h.u1.token, creditBody(h.u2.user.email));
    expect(user.statusCode).toBe(403);
    expect(user.json()).toEqual({ message: msg.forbidden });
  });

  it('answers 404 for anyone not strictly below the caller, like an unknown email', async () => {
    const cases: [string, string][] = [
      [h.r2.token, h.u1.user.email],
      [h.s1.token, h.u2.user.email],
      [h.s1.token, h.r1.user.email],
      [h.r1.token, h.r2.user.email],
      [h.r1.token, ADMIN_EMAIL],
      [h.r1.token, 'nobody@test.local'],
    ];
    for (const [token, to] of cases) {
      const res = await postCredit(t, token, creditBody(to, { type: 'Removed', count: 1 }));
      expect(res.statusCode, to).toBe(404);
      expect(res.json()).toEqual({ message: msg.creditRecipientNotFound });
    }
  });

  it('answers 409 for a Blocked user, adding or taking back', async () => {
    const blocked = await t.createUser(h.r1.token, { role: 'User', name: 'Blocked' });
    await postCredit(t, h.r1.token, creditBody(blocked.user.email, { count: 1 }));
    const block = await t.request({
      method: 'PUT',
      url: `/api/users/update/${blocked.user.id}`,
      token: h.r1.token,
      ...multipart({ ...formOf(blocked.user), status: 'Blocked' }),
    });
    expect(block.statusCode).toBe(200);
    for (const type of ['Added', 'Removed']) {
      const res = await postCredit(
        t,
        h.r1.token,
        creditBody(blocked.user.email, { type, count: 1 }),
      );
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: msg.creditRecipientBlocked });
    }
  });
});
