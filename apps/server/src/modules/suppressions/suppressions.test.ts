import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  server as msg,
  SUPPRESSION_SEARCH_MAX_DIGITS,
  type AddSuppressionReply,
  type SuppressionPage,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { messageOf } from '../campaigns/campaign-actions.test-fixtures.js';

/** The suppression list over HTTP: each role's own list, the Admin's view of all, bad input. */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const add = (token: string | undefined, phone: unknown) =>
  t.request({ method: 'POST', url: '/api/suppressions', token, payload: { phone } });
const list = (token: string | undefined, query = '') =>
  t.request({ method: 'GET', url: `/api/suppressions${query}`, token });
async function page(token: string, query = ''): Promise<SuppressionPage> {
  const res = await list(token, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SuppressionPage>();
}
const remove = (token: string, id: string) =>
  t.request({ method: 'DELETE', url: `/api/suppressions/${id}`, token });

describe('adding and listing', () => {
  it('adds a number as a person types it, digits only, and refuses it again with 409', async () => {
    const res = await add(h.u1.token, '+91 98765 43210');
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<AddSuppressionReply>();
    expect(body.message).toBe(msg.suppressionAdded('919876543210'));
    expect(body.suppression).toMatchObject({
      phone: '919876543210',
      source: 'manual',
      owner: { id: h.u1.user.id, email: h.u1.user.email },
    });
    const again = await add(h.u1.token, '919876543210');
    expect(again.statusCode).toBe(409);
    expect(messageOf(again)).toBe(msg.suppressionExists('919876543210'));
    // Another account's list is its own: the same number is new there.
    expect((await add(h.u2.token, '919876543210')).statusCode).toBe(201);
  });

  it('refuses what is not a 7 to 15 digit number with 400 and its message', async () => {
    for (const phone of ['12345', '1234567890123456', 'abc1234567', '', 42]) {
      const res = await add(h.u1.token, phone);
      expect(res.statusCode, String(phone)).toBe(400);
      expect(messageOf(res)).toBe(msg.suppressionPhoneInvalid);
    }
    expect((await add(undefined, '9876543210')).statusCode).toBe(401);
  });

  it('lists only the caller’s own entries, newest first, searched by part of the number and paged', async () => {
    for (const p of ['5550000001', '5550000002', '5550000003']) {
      expect((await add(h.s1.token, p)).statusCode).toBe(201);
    }
    const all = await page(h.s1.token);
    expect(all.suppressions.map((s) => s.phone)).toEqual([
      '5550000003',
      '5550000002',
      '5550000001',
    ]);
    expect((await page(h.s1.token, '?search=0002')).suppressions.map((s) => s.phone)).toEqual([
      '5550000002',
    ]);
    const first = await page(h.s1.token, '?limit=2');
    expect(first.suppressions).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await page(h.s1.token, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.suppressions.map((s) => s.phone)).toEqual(['5550000001']);
    expect(second.nextCursor).toBeNull();
    // The Reseller above S1 sees none of S1's entries: each manages its own.
    expect((await page(h.r1.token)).suppressions).toEqual([]);
  });

  it('answers 400 for a bad search, cursor or limit, and 404 for another owner’s list', async () => {
    for (const [q, message] of [
      ['?search=98a', msg.suppressionSearchInvalid(SUPPRESSION_SEARCH_MAX_DIGITS)],
      ['?search=1234567890123456', msg.suppressionSearchInvalid(SUPPRESSION_SEARCH_MAX_DIGITS)],
      ['?cursor=nope', msg.invalidCursor],
      ['?limit=0', msg.pageLimit(200)],
    ] as const) {
      const res = await list(h.u1.token, q);
      expect(res.statusCode, q).toBe(400);
      expect(messageOf(res)).toBe(message);
    }
    const other = await list(h.r1.token, `?ownerId=${h.u2.user.id}`);
    expect(other.statusCode).toBe(404);
    expect((await list(undefined)).statusCode).toBe(401);
  });

  it('shows the Admin everyone’s entries with their owner, filtered by owner', async () => {
    const all = await page(h.admin, '?limit=200');
    const owners = new Set(all.suppressions.map((s) => s.owner.email));
    expect(owners).toEqual(new Set([h.u1.user.email, h.u2.user.email, h.s1.user.email]));
    const u2 = await page(h.admin, `?ownerId=${h.u2.user.id}`);
    expect(u2.suppressions.map((s) => [s.phone, s.owner.id])).toEqual([
      ['919876543210', h.u2.user.id],
    ]);
    const unknown = await list(h.admin, '?ownerId=00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
  });
});

describe('removing', () => {
  it('removes the caller’s own entry; another’s answers 404; the Admin removes any', async () => {
    const mine = (await add(h.u3.token, '7770000001')).json<AddSuppressionReply>().suppression;
    const theirs = (await add(h.u2.token, '7770000002')).json<AddSuppressionReply>().suppression;
    const refused = await remove(h.u3.token, theirs.id);
    expect(refused.statusCode).toBe(404);
    expect(messageOf(refused)).toBe(msg.suppressionNotFound);
    const ok = await remove(h.u3.token, mine.id);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(messageOf(ok)).toBe(msg.suppressionRemoved('7770000001'));
    expect((await remove(h.u3.token, mine.id)).statusCode).toBe(404);
    expect((await remove(h.admin, theirs.id)).statusCode).toBe(200);
    expect((await page(h.u2.token)).suppressions.map((s) => s.phone)).not.toContain('7770000002');
    expect((await remove(h.u3.token, 'not-a-uuid')).statusCode).toBe(400);
  });
});
