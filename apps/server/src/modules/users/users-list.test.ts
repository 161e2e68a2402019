import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  USERS_PAGE_DEFAULT,
  USERS_PAGE_MAX,
  USERS_SEARCH_MAX,
  server as msg,
  type User,
  type UserPage,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from './test-fixtures.js';

/** GET /api/users: keyset pages, search and scope (the list is bounded). */

let t: TestApp;
let h: Hierarchy;
/** Bulk users under S1 (so R1 and S1 see them, R2 does not); many share one created_at. */
const BULK = 60;
const bulkIds: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  const db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  try {
    const s1 = h.s1.user.id;
    const ancestors = [h.r1.user.id, s1];
    for (let i = 0; i < BULK; i++) {
      const id = randomUUID();
      bulkIds.push(id);
      // Groups of 10 share a created_at to the microsecond: only the id orders them.
      const at = `2024-01-01T00:00:00.${String(100000 + Math.floor(i / 10)).slice(1)}1Z`;
      await db.query(
        `INSERT INTO users (id, email, name, role, password_hash, created_by, ancestors, created_at)
         VALUES ($1, $2, $3, 'User', 'x', $4, $5, $6)`,
        [id, `bulk-${i}@paging.test`, `Bulk ${i}`, s1, ancestors, at],
      );
    }
    // Names that a LIKE wildcard would match by accident.
    for (const name of ['100% Fresh', 'Under_Score', 'Back\\Slash']) {
      await db.query(
        `INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
         VALUES ($1, $2, 'User', 'x', $3, $4)`,
        [`${randomUUID().slice(0, 8)}@odd.test`, name, s1, ancestors],
      );
    }
  } finally {
    await db.end();
  }
});
afterAll(() => t.close());

function list(token: string, query: Record<string, string | number> = {}) {
  return t.request({ method: 'GET', url: '/api/users', token, query: stringify(query) });
}

const stringify = (q: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)]));

/** Every page from the first, following nextCursor. */
async function allPages(token: string, query: Record<string, string | number> = {}) {
  const pages: UserPage[] = [];
  let cursor: string | null = null;
  do {
    const res = await list(token, { ...query, ...(cursor ? { cursor } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<UserPage>();
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 100);
  return pages;
}

const ids = (users: User[]) => users.map((u) => u.id);

describe('GET /api/users pages', () => {
  it('answers { users, nextCursor } with at most the default page size', async () => {
    const res = await list(h.admin);
    expect(res.statusCode).toBe(200);
    const page = res.json<UserPage>();
    expect(page.users).toHaveLength(USERS_PAGE_DEFAULT);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it('lists every user of the scope exactly once across pages, newest first', async () => {
    for (const token of [h.admin, h.r1.token, h.s1.token]) {
      const whole = await list(token, { limit: USERS_PAGE_MAX });
      const expected = whole.json<UserPage>();
      expect(expected.nextCursor).toBeNull();
      const pages = await allPages(token, { limit: 7 });
      expect(pages.slice(0, -1).every((p) => p.users.length === 7)).toBe(true);
      expect(pages.at(-1)!.nextCursor).toBeNull();
      const seen = pages.flatMap((p) => ids(p.users));
      expect(seen).toEqual(ids(expected.users));
      expect(new Set(seen).size).toBe(seen.length);
      const times = pages.flatMap((p) => p.users.map((u) => u.createdAt));
      expect([...times].sort().reverse()).toEqual(times);
    }
    const s1 = (await allPages(h.s1.token, { limit: 7 })).flatMap((p) => ids(p.users));
    expect(s1).toHaveLength(BULK + 3 + 1); // the bulk, the odd names and U1
    expect(s1).toEqual(expect.arrayContaining([...bulkIds, h.u1.user.id]));
    expect(s1).not.toContain(h.s1.user.id);
  });

  it('keeps the scope: R2 sees only its subtree, never the bulk under S1', async () => {
    const r2 = (await allPages(h.r2.token, { limit: 2 })).flatMap((p) => ids(p.users));
    expect(r2).toEqual([h.u3.user.id]);
  });

  it('answers 403 to a User and 401 without a token, whatever the query', async () => {
    const res = await list(h.u1.token, { search: 'Bulk' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: msg.forbidden });
    const anon = await t.request({ method: 'GET', url: '/api/users?limit=1' });
    expect(anon.statusCode).toBe(401);
  });
});

describe('GET /api/users search', () => {
  it('matches a part of the name or the email, in any case', async () => {
    const byName = (await allPages(h.admin, { search: 'bULK 1', limit: 5 })).flatMap(
      (p) => p.users,
    );
    // Bulk 1 and Bulk 10 … Bulk 19.
    expect(byName.map((u) => u.name).sort()).toEqual(
      ['Bulk 1', ...Array.from({ length: 10 }, (_, i) => `Bulk 1${i}`)].sort(),
    );
    const byEmail = await list(h.r1.token, { search: 'K-42@PAGING' });
    expect(byEmail.json<UserPage>().users.map((u) => u.email)).toEqual(['bulk-42@paging.test']);
    const u1 = await list(h.r1.token, { search: h.u1.user.email.slice(2, 12) });
    expect(ids(u1.json<UserPage>().users)).toEqual([h.u1.user.id]);
  });

  it('stays within the scope', async () => {
    const r2 = await list(h.r2.token, { search: 'bulk' });
    expect(r2.json<UserPage>()).toEqual({ users: [], nextCursor: null });
    const s1 = await list(h.s1.token, { search: 'R1' });
    expect(s1.json<UserPage>().users).toEqual([]);
  });

  it('keeps one role with ?role=, within the scope, across pages', async () => {
    const resellers = (await allPages(h.admin, { role: 'Reseller', limit: 1 })).flatMap(
      (p) => p.users,
    );
    expect(resellers.length).toBeGreaterThanOrEqual(2);
    expect(new Set(resellers.map((u) => u.role))).toEqual(new Set(['Reseller']));
    expect(ids(resellers)).toContain(h.r1.user.id);
    const subs = (await list(h.r1.token, { role: 'Sub-Reseller' })).json<UserPage>().users;
    expect(ids(subs)).toEqual([h.s1.user.id]);
    expect((await list(h.r1.token, { role: 'Reseller' })).json<UserPage>().users).toEqual([]);
    expect((await list(h.admin, { role: 'Boss' })).statusCode).toBe(400);
  });

  it('takes %, _ and \\ literally', async () => {
    const names = async (search: string) =>
      (await list(h.admin, { search })).json<UserPage>().users.map((u) => u.name);
    expect(await names('%')).toEqual(['100% Fresh']);
    expect(await names('_')).toEqual(['Under_Score']);
    expect(await names('\\')).toEqual(['Back\\Slash']);
  });

  it('treats an empty or blank search as none', async () => {
    const all = (await list(h.s1.token, { limit: USERS_PAGE_MAX })).json<UserPage>();
    const blank = (
      await list(h.s1.token, { limit: USERS_PAGE_MAX, search: '   ' })
    ).json<UserPage>();
    expect(ids(blank.users)).toEqual(ids(all.users));
  });
});

describe('GET /api/users validation', () => {
  const bad: [Record<string, string>, string][] = [
    [{ limit: '0' }, msg.pageLimit(USERS_PAGE_MAX)],
    [{ limit: String(USERS_PAGE_MAX + 1) }, msg.pageLimit(USERS_PAGE_MAX)],
    [{ limit: '1.5' }, msg.pageLimit(USERS_PAGE_MAX)],
    [{ limit: 'ten' }, msg.pageLimit(USERS_PAGE_MAX)],
    [{ cursor: 'nope' }, msg.invalidCursor],
    [{ cursor: '9223372036854775808' }, msg.invalidCursor],
    [{ cursor: `99999999999999999_${randomUUID()}` }, msg.invalidCursor],
    [{ cursor: `1_${randomUUID()}\0` }, msg.textHasNul],
    [{ cursor: '1_not-a-uuid' }, msg.invalidCursor],
    [{ search: 'x'.repeat(USERS_SEARCH_MAX + 1) }, msg.searchTooLong(USERS_SEARCH_MAX)],
    [{ search: 'a\0b' }, msg.textHasNul],
  ];
  it.each(bad)('answers 400 to %j', async (query, message) => {
    const res = await list(h.admin, query);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ message });
  });

  it('answers a well-formed cursor past the end with an empty page', async () => {
    const res = await list(h.admin, { cursor: `0_${randomUUID()}` });
    expect(res.statusCode).toBe(200);
    expect(res.json<UserPage>()).toEqual({ users: [], nextCursor: null });
  });
});
