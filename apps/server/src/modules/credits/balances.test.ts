import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  BALANCES_NEXT_CURSOR_HEADER,
  BALANCES_PAGE_DEFAULT,
  BALANCES_PAGE_MAX,
  server as msg,
  type Balances,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { DP, NORMAL, creditBody, postCredit } from './credits.test-fixtures.js';

/**
 * GET /api/credits/balances, bounded: one user with `email`, else keyset pages of
 * users by email with the next cursor in X-Next-Cursor. Besides the API's hierarchy, BULK users
 * made in SQL (with balance rows, no password hashing) under R1 make pages worth walking.
 */
const BULK = 1_200;

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  // Balances: R1 25 Normal + 7 DP, S1 6, U1 4, U2 15, U3 3.
  const steps: [string, Record<string, unknown>][] = [
    [h.admin, creditBody(h.r1.user.email, { count: 50 })],
    [h.admin, creditBody(h.r1.user.email, { count: 7, creditType: DP })],
    [h.admin, creditBody(h.u3.user.email, { count: 3 })],
    [h.r1.token, creditBody(h.u2.user.email, { count: 20 })],
    [h.r1.token, creditBody(h.u2.user.email, { count: 5, type: 'Removed' })],
    [h.r1.token, creditBody(h.s1.user.email, { count: 10 })],
    [h.s1.token, creditBody(h.u1.user.email, { count: 4 })],
  ];
  for (const [token, body] of steps) {
    const res = await postCredit(t, token, body);
    if (res.statusCode !== 201) throw new Error(`setup: ${res.statusCode} ${res.body}`);
  }
  const r1 = await t.ownerDb
    .selectFrom('users')
    .select(['id', 'ancestors'])
    .where('id', '=', h.r1.user.id)
    .executeTakeFirstOrThrow();
  // Users under R1, each with one or two balance rows; every 10th holds none.
  await sql`
    WITH made AS (
      INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
      SELECT 'bulk' || lpad(i::text, 5, '0') || '@balances.local', 'Bulk ' || i, 'User', 'x',
             ${r1.id}::uuid, ${sql.val(r1.ancestors)}::uuid[] || ${r1.id}::uuid
      FROM generate_series(1, ${BULK}) i RETURNING id, email)
    INSERT INTO credit_balances (user_id, credit_type, balance, total_added)
    SELECT made.id, ct, n, n
    FROM made, LATERAL (SELECT substring(made.email from 5 for 5)::int AS n) k,
         LATERAL unnest(CASE WHEN n % 10 = 0 THEN ARRAY[]::text[]
                             WHEN n % 3 = 0 THEN ARRAY[${NORMAL}, ${DP}]
                             ELSE ARRAY[${NORMAL}] END) ct`.execute(t.ownerDb);
  await sql`ANALYZE`.execute(t.ownerDb);
});
afterAll(() => t.close());

const get = (token: string, query: Record<string, string> = {}) =>
  t.request({ method: 'GET', url: '/api/credits/balances', token, query });

/** What the database holds for a scope: every balance row of its users, as the map. */
async function truth(ancestor: string | null, selfId?: string): Promise<Balances> {
  const rows = await t.ownerDb
    .selectFrom('credit_balances as cb')
    .innerJoin('users as u', 'u.id', 'cb.user_id')
    .select(['u.email', 'cb.credit_type', 'cb.balance'])
    .$if(ancestor !== null, (q) =>
      q.where((eb) =>
        eb.or([eb('u.id', '=', selfId!), sql<boolean>`u.ancestors @> ARRAY[${ancestor}]::uuid[]`]),
      ),
    )
    .execute();
  const out: Balances = {};
  for (const r of rows) (out[r.email] ??= {})[r.credit_type] = Number(r.balance);
  return out;
}

/** Walks every page of `limit` users; returns the pages' maps. */
async function walk(token: string, limit?: number) {
  const pages: Balances[] = [];
  let cursor: string | null = null;
  do {
    const query: Record<string, string> = {};
    if (limit !== undefined) query.limit = String(limit);
    if (cursor !== null) query.cursor = cursor;
    const res = await get(token, query);
    expect(res.statusCode, res.body).toBe(200);
    pages.push(res.json<Balances>());
    const header = res.headers[BALANCES_NEXT_CURSOR_HEADER];
    cursor = typeof header === 'string' ? decodeURIComponent(header) : null;
    expect(pages.length).toBeLessThan(2_000);
  } while (cursor !== null);
  return pages;
}

describe('GET /api/credits/balances pages', () => {
  it('pages every user of the scope exactly once, by email, at most `limit` per page', async () => {
    for (const [token, limit, expected] of [
      [h.admin, 500, await truth(null)],
      [h.admin, undefined, await truth(null)],
      [h.r1.token, 7, await truth(h.r1.user.id, h.r1.user.id)],
      [h.s1.token, 1, await truth(h.s1.user.id, h.s1.user.id)],
    ] as const) {
      const pages = await walk(token, limit);
      const size = limit ?? BALANCES_PAGE_DEFAULT;
      for (const page of pages) expect(Object.keys(page).length).toBeLessThanOrEqual(size);
      const emails = pages.flatMap((p) => Object.keys(p));
      expect(new Set(emails).size).toBe(emails.length);
      expect(emails).toEqual(Object.keys(expected).sort());
      expect(Object.assign({}, ...pages)).toEqual(expected);
      // Only the last page lacks a cursor, and only a full page carries one.
      expect(pages.slice(0, -1).every((p) => Object.keys(p).length === size)).toBe(true);
    }
  });

  it('answers at most BALANCES_PAGE_DEFAULT users without a limit (it answered all before)', async () => {
    const res = await get(h.admin);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json<Balances>())).toHaveLength(BALANCES_PAGE_DEFAULT);
    expect(res.headers[BALANCES_NEXT_CURSOR_HEADER]).toBeTruthy();
    const max = await get(h.admin, { limit: String(BALANCES_PAGE_MAX) });
    expect(Object.keys(max.json<Balances>())).toHaveLength(BALANCES_PAGE_MAX);
  });

  it("keeps the map's shape and scope: a User sees itself, R2 its subtree", async () => {
    expect((await get(h.u1.token)).json()).toEqual({ [h.u1.user.email]: { [NORMAL]: 4 } });
    expect((await get(h.u1.token)).headers[BALANCES_NEXT_CURSOR_HEADER]).toBeUndefined();
    expect((await get(h.r2.token)).json()).toEqual({ [h.u3.user.email]: { [NORMAL]: 3 } });
  });
});

describe('GET /api/credits/balances?email=', () => {
  it("answers one user's balances (any case), {} for a user without any", async () => {
    const res = await get(h.r1.token, { email: h.r1.user.email.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ [h.r1.user.email]: { [NORMAL]: 25, [DP]: 7 } });
    expect(res.headers[BALANCES_NEXT_CURSOR_HEADER]).toBeUndefined();
    expect((await get(h.s1.token, { email: h.u1.user.email })).json()).toEqual({
      [h.u1.user.email]: { [NORMAL]: 4 },
    });
    expect((await get(h.admin, { email: 'bulk00010@balances.local' })).json()).toEqual({
      'bulk00010@balances.local': {},
    });
  });

  it('answers 404 { message } out of scope or unknown', async () => {
    for (const [token, email] of [
      [h.r2.token, h.u1.user.email],
      [h.u1.token, h.u2.user.email],
      [h.s1.token, h.r1.user.email],
      [h.r2.token, 'bulk00001@balances.local'],
      [h.admin, 'nobody@test.local'],
    ] as const) {
      const res = await get(token, { email });
      expect(res.statusCode, email).toBe(404);
      expect(res.json()).toEqual({ message: msg.userNotFound });
    }
  });
});

describe('GET /api/credits/balances bad queries', () => {
  it.each([
    ['limit', '0'],
    ['limit', String(BALANCES_PAGE_MAX + 1)],
    ['limit', 'abc'],
    ['limit', '1.5'],
    ['email', 'not-an-email'],
    ['email', 'a\u0000@b.co'],
    ['cursor', 'x\u0000y'],
    ['cursor', 'x'.repeat(255)],
  ])('%s=%j answers 400 { message }', async (key, value) => {
    const res = await get(h.admin, { [key]: value });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json<{ message: string }>().message).toBe('string');
  });

  it('empty values mean unset', async () => {
    const res = await get(h.u1.token, { email: '', cursor: '' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual([h.u1.user.email]);
  });

  it('answers 401 without a token', async () => {
    const res = await t.request({ method: 'GET', url: '/api/credits/balances' });
    expect(res.statusCode).toBe(401);
  });

  it('a cursor past every email answers {} without a next cursor', async () => {
    const res = await get(h.admin, { cursor: '\u{10FFFF}' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(res.headers[BALANCES_NEXT_CURSOR_HEADER]).toBeUndefined();
  });
});
