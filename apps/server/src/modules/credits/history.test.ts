import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDIT_TYPES, type CreateCreditReply, type HistoryReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { pythonZipCheck, sheetTexts, unzip } from '../../../test/zip.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import {
  allPages,
  ids,
  person,
  qs,
  seed,
  standardLedger,
  visibleTo,
  type People,
  type Person,
  type Query,
  type Seeded,
  type Who,
} from './history.test-fixtures.js';

const { NORMAL, DP } = { NORMAL: CREDIT_TYPES[0], DP: CREDIT_TYPES[2] };

let t: TestApp;
let h: Hierarchy;
let p: People;
let token: Record<Who, string>;
let model: Seeded[] = [];

beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  ({ p, token, model } = await standardLedger(t, h));
});
afterAll(() => t.close());

const history = (tok: string | undefined, query: Query = {}) =>
  t.request({ method: 'GET', url: '/api/credits/history', token: tok, query: qs(query) });
const seen = async (who: Who, query: Query = {}) => ids(await allPages(t, token[who], query));
const expected = (who: Who, keep: (e: Seeded) => boolean = () => true) =>
  ids(visibleTo(p[who], model).filter(keep));

describe('scope', () => {
  it.each(['admin', 'r1', 's1', 'u1', 'u2', 'r2', 'u3'] as const)(
    '%s sees its entries',
    async (w) => {
      expect(await seen(w)).toEqual(expected(w));
    },
  );

  it('a User sees only its own `to` entries; R1 sees its subtree, not R2`s', async () => {
    const u1 = await allPages(t, token.u1, {});
    expect(u1.length).toBe(3);
    expect(u1.every((e) => e.to === p.u1.email)).toBe(true);
    const r1 = await allPages(t, token.r1, {});
    expect(r1.some((e) => e.to === p.r2.email || e.to === p.u3.email)).toBe(false);
    expect(r1.length).toBe(7);
    expect(await seen('admin')).toHaveLength(model.length);
  });
});

describe('filters', () => {
  const on = (day: string) => ({ startDate: day, endDate: day });
  const inRange = (from: string, until: string) => (e: Seeded) =>
    e.at >= new Date(from) && e.at < new Date(until);

  it('dates are the viewer`s local days, End Date inclusive', async () => {
    const ist = await seen('admin', { ...on('2024-03-11'), tzOffset: -330 });
    expect(ist).toEqual(expected('admin', inRange('2024-03-10T18:30Z', '2024-03-11T18:30Z')));
    expect(ist).toHaveLength(3); // S1's 18:31 and R2's transfer at 18:29:59
    const utc = await seen('admin', on('2024-03-11'));
    expect(utc).toEqual(expected('admin', inRange('2024-03-11T00:00Z', '2024-03-12T00:00Z')));
    const est = await seen('admin', { ...on('2024-03-11'), tzOffset: 300 });
    expect(est).toEqual(expected('admin', inRange('2024-03-11T05:00Z', '2024-03-12T05:00Z')));
    expect(est).toHaveLength(4);
    const open = await seen('admin', { startDate: '2024-03-12', tzOffset: 0 });
    expect(open).toEqual(expected('admin', (e) => e.at >= new Date('2024-03-12T00:00Z')));
    const upTo = await seen('r1', { endDate: '2024-03-01' });
    expect(upTo).toEqual(expected('r1', (e) => e.at < new Date('2024-03-02T00:00Z')));
    expect(upTo).toHaveLength(1);
  });

  it('userEmail matches `to` or `by`, within the caller`s relevant users', async () => {
    const byOrTo = (x: Person) => (e: Seeded) => e.to.id === x.id || e.by.id === x.id;
    expect(await seen('admin', { userEmail: p.r1.email })).toEqual(expected('admin', byOrTo(p.r1)));
    expect(await seen('admin', { userEmail: p.r1.email })).toHaveLength(3);
    expect(await seen('admin', { userEmail: p.u1.email.toUpperCase() })).toHaveLength(3);
    expect(await seen('r1', { userEmail: p.u1.email })).toEqual(expected('r1', byOrTo(p.u1)));
    expect(await seen('s1', { userEmail: p.s1.email })).toEqual(expected('s1', byOrTo(p.s1)));
    expect(await seen('u1', { userEmail: p.u1.email })).toEqual(expected('u1'));
    // Not relevant to the caller: an empty page, not an error.
    for (const [who, other] of [
      ['r1', 'u3'],
      ['r1', 'admin'],
      ['u1', 's1'],
      ['s1', 'r1'],
    ] as const) {
      expect(await seen(who, { userEmail: p[other].email })).toEqual([]);
    }
    expect(await seen('admin', { userEmail: 'nobody@test.local' })).toEqual([]);
  });

  it('transaction type, credit type and their combination', async () => {
    expect(await seen('admin', { transactionType: 'Removed' })).toEqual(
      expected('admin', (e) => e.type === 'Removed'),
    );
    expect(await seen('r2', { creditType: DP })).toEqual(
      expected('r2', (e) => e.creditType === DP),
    );
    expect(await seen('admin', { creditType: CREDIT_TYPES[7] })).toEqual([]);
    // Admin's credit-type pages read the (credit_type, id) index: pages of 2 give the same list.
    for (const creditType of [DP, NORMAL]) {
      const want = expected('admin', (e) => e.creditType === creditType);
      expect(want.length).toBeGreaterThan(2);
      expect(await seen('admin', { creditType, limit: 2 })).toEqual(want);
      expect(await seen('admin', { creditType, transactionType: 'Added', limit: 2 })).toEqual(
        expected('admin', (e) => e.creditType === creditType && e.type === 'Added'),
      );
    }
    const combo = {
      transactionType: 'Removed',
      creditType: NORMAL,
      userEmail: p.u1.email,
      startDate: '2024-03-12',
      endDate: '2024-03-12',
      tzOffset: 300,
    };
    expect(await seen('r1', combo)).toEqual(
      expected(
        'r1',
        (e) =>
          e.type === 'Removed' &&
          e.creditType === NORMAL &&
          e.to.id === p.u1.id &&
          inRange('2024-03-12T05:00Z', '2024-03-13T05:00Z')(e),
      ),
    );
    expect(await seen('r1', combo)).toHaveLength(1);
  });

  it('empty strings mean unset', async () => {
    const blank = {
      startDate: '',
      endDate: '',
      userEmail: '',
      transactionType: '',
      creditType: '',
    };
    expect(await seen('s1', blank)).toEqual(expected('s1'));
  });
});

describe('keyset pagination', () => {
  it('pages 50/50/20 newest first, no duplicate or gap, and ignores rows added meanwhile', async () => {
    const k = await t.createUser(h.admin, { role: 'User', name: 'Keyset' });
    const kp = await person(t, k.user.email);
    const rows = await seed(
      t,
      Array.from({ length: 120 }, () => ({ to: kp, by: p.admin })),
    );
    const want = ids(rows).reverse();
    const pages: HistoryReply[] = [];
    let cursor = '';
    for (;;) {
      const res = await history(k.token, { limit: 50, cursor });
      expect(res.statusCode).toBe(200);
      const page = res.json<HistoryReply>();
      pages.push(page);
      if (pages.length === 1) await seed(t, [{ to: kp, by: p.admin }]); // newer than page 1
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(pages.map((pg) => pg.transactions.length)).toEqual([50, 50, 20]);
    expect(pages.map((pg) => pg.nextCursor)).toEqual([want[49], want[99], null]);
    expect(pages.flatMap((pg) => ids(pg.transactions))).toEqual(want);
    const exact = await history(k.token, { limit: 20, cursor: want[99]! });
    expect(exact.json<HistoryReply>().nextCursor).toBe(want[119]); // full page: maybe more
  });

  it('the first page alone carries balances, credit types and relevant users', async () => {
    const first = (await history(token.u1, { limit: 1 })).json<HistoryReply>();
    expect(first.userRemainingCredits).toEqual([{ creditType: NORMAL, balance: 89 }]);
    expect(first.allAvailableCreditTypes).toEqual([...CREDIT_TYPES]);
    expect(first.allFilterableUsers).toEqual([{ name: 'U1', email: p.u1.email }]);
    const next = (await history(token.u1, { cursor: first.nextCursor! })).json<HistoryReply>();
    expect(next.transactions).toHaveLength(2);
    expect(next.userRemainingCredits).toBeUndefined();
    expect(next.allFilterableUsers).toBeUndefined();
    const admin = (await history(token.admin)).json<HistoryReply>();
    expect(admin.userRemainingCredits).toEqual([]);
    const r1 = (await history(token.r1)).json<HistoryReply>();
    expect(r1.userRemainingCredits).toEqual([{ creditType: NORMAL, balance: 900 }]);
    expect(r1.allFilterableUsers?.map((u) => u.name)).toEqual(['R1', 'S1', 'U1', 'U2']);
  });

  it('lists a user added or renamed a moment ago (the list is kept only until a change)', async () => {
    const before = (await history(token.r1)).json<HistoryReply>().allFilterableUsers ?? [];
    const added = await t.createUser(token.r1, { role: 'User', name: 'Zed New' });
    const after = (await history(token.r1)).json<HistoryReply>().allFilterableUsers ?? [];
    expect(after).toEqual([...before, { name: 'Zed New', email: added.user.email }]);
  });
});

describe('bad input', () => {
  it.each([
    [{ startDate: '2024-13-01' }, 'Enter a real date.'],
    [{ endDate: 'abc' }, 'Dates are YYYY-MM-DD.'],
    [{ transactionType: 'Stolen' }, 'Choose Added or Removed.'],
    [{ creditType: 'Gold' }, 'Choose a credit type.'],
    [{ cursor: 'abc' }, 'Invalid cursor.'],
    [{ cursor: '-5' }, 'Invalid cursor.'],
    [{ startDate: '2024-03-12', endDate: '2024-03-11' }, 'Start Date must not be after End Date.'],
    [{ userEmail: 'not-an-email' }, 'Enter a valid email address.'],
  ])('%j → 400', async (query, message) => {
    for (const url of ['/api/credits/history', '/api/credits/history/export']) {
      const res = await t.request({ method: 'GET', url, token: token.r1, query: qs(query) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    }
  });

  it.each<Query>([{ limit: 0 }, { limit: 201 }, { tzOffset: 'x' }])('%j → 400', async (query) => {
    expect((await history(token.r1, query)).statusCode).toBe(400);
  });

  it('401 without a token', async () => {
    expect((await history(undefined)).statusCode).toBe(401);
    const res = await t.request({ method: 'GET', url: '/api/credits/history/export' });
    expect(res.statusCode).toBe(401);
  });
});

describe('export to Excel', () => {
  const exportAs = (tok: string, query: Query = {}) =>
    t.request({ method: 'GET', url: '/api/credits/history/export', token: tok, query: qs(query) });

  it('streams a real .xlsx of the filtered rows, formulas neutralised', async () => {
    const res = await exportAs(token.admin, { creditType: NORMAL, endDate: '2024-03-31' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="transaction-history-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const parts = unzip(res.rawPayload);
    expect(pythonZipCheck(res.rawPayload).sort()).toEqual([...parts.keys()].sort());
    expect(parts.get('xl/workbook.xml')).toContain('name="Transactions"');
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    const want = visibleTo(p.admin, model).filter((e) => e.creditType === NORMAL);
    expect(sheet.match(/<row /g)).toHaveLength(want.length + 1);
    const texts = sheetTexts(sheet);
    expect(texts.slice(0, 11)).toEqual([
      'Date',
      'To (Email)',
      'To (Name)',
      'By (Email)',
      'By (Name)',
      'Type',
      'Credit Type',
      'Count',
      'Rate',
      'Total Amount',
      'Reason',
    ]);
    expect(texts).toContain("'=cmd|/C calc");
    expect(texts).not.toContain('=cmd|/C calc');
    expect(texts).not.toContain(DP);
    // Newest first: U1's campaign debit (no rate), 2024-03-12 05:00 UTC as a date cell.
    expect(sheet).toMatch(/<row r="2"><c r="A2" s="2"><v>45363\.208333\d*<\/v><\/c>/);
    expect(sheet).toMatch(/<row r="2">.*<c r="H2"><v>1<\/v><\/c><\/row>/);
    // Admin's burn of 10 at ₹0.10: count, rate and total as numbers.
    expect(sheet).toMatch(/<c r="H3"><v>10<\/v><\/c><c r="I3" s="3"><v>0.1<\/v><\/c>/);
  });

  it('respects scope and the viewer`s time zone', async () => {
    const parts = unzip((await exportAs(token.r2, { tzOffset: -330 })).rawPayload);
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    const texts = sheetTexts(sheet);
    expect(sheet.match(/<row /g)).toHaveLength(visibleTo(p.r2, model).length + 1);
    expect(texts).not.toContain(p.u1.email);
    expect(texts).not.toContain("'=cmd|/C calc");
    expect(texts).toContain(p.u3.email);
    // 2024-03-11 18:29:59 UTC is 23:59:59 that day in IST.
    expect(sheet).toMatch(/<c r="A2" s="2"><v>45362\.99998\d*<\/v>/);
    const none = await exportAs(token.r1, { userEmail: p.u3.email });
    expect(sheetTexts(unzip(none.rawPayload).get('xl/worksheets/sheet1.xml')!)).toHaveLength(11);
  });
});

describe('entries written by POST /api/credits', () => {
  it('show in exactly the history scopes of their parties', async () => {
    const post = async (tok: string, to: Person, type: 'Added' | 'Removed') => {
      const res = await t.request({
        method: 'POST',
        url: '/api/credits',
        token: tok,
        payload: { to: to.email, creditType: NORMAL, count: 3, rate: 0.5, type },
      });
      expect(res.statusCode).toBe(201);
      return res.json<CreateCreditReply>().transactions;
    };
    const written = [
      ...(await post(token.admin, p.u2, 'Added')),
      ...(await post(token.r1, p.u1, 'Added')), // a transfer: U1 Added, R1 Removed
    ];
    expect(written).toHaveLength(3);
    const of = (email: string) => Object.values(p).find((x) => x.email === email)!;
    model.push(
      ...written.map((e) => ({
        id: e.id,
        to: of(e.to),
        by: of(e.by),
        type: e.type,
        creditType: e.creditType,
        at: new Date(e.createdAt),
      })),
    );
    const since = { startDate: written[0]!.createdAt.slice(0, 10) };
    for (const who of ['admin', 'r1', 's1', 'u1', 'u2', 'r2', 'u3'] as const) {
      const want = expected(who, (e) => written.some((w) => w.id === e.id));
      expect((await seen(who, since)).filter((id) => written.some((w) => w.id === id))).toEqual(
        want,
      );
    }
    // S1 sees U1's Added but not R1's Removed; R2 and U3 see none of them.
    expect(expected('s1', (e) => written.some((w) => w.id === e.id))).toHaveLength(1);
    expect(expected('r1', (e) => written.some((w) => w.id === e.id))).toHaveLength(3);
    expect(expected('r2', (e) => written.some((w) => w.id === e.id))).toHaveLength(0);
  });
});
