import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { HISTORY_FILTER_USERS_MAX, type HistoryReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { creditBody, postCredit } from './credits.test-fixtures.js';

/**
 * Transaction History's allFilterableUsers is capped: uncapped, it would list every user of
 * the caller's scope in each first page. MORE users than the cap (made in SQL) sit under R1.
 */
const MORE = HISTORY_FILTER_USERS_MAX + 50;

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await sql`
    INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
    SELECT 'many' || lpad(i::text, 4, '0') || '@filter.local', 'Many ' || lpad(i::text, 4, '0'),
           'User', 'x', ${h.r1.user.id}::uuid, ARRAY[
             (SELECT created_by FROM users WHERE id = ${h.r1.user.id}::uuid), ${h.r1.user.id}::uuid]
    FROM generate_series(1, ${MORE}::int) i`.execute(t.ownerDb);
});
afterAll(() => t.close());

const firstPage = (token: string, query: Record<string, string> = {}) =>
  t.request({ method: 'GET', url: '/api/credits/history', token, query });

describe('allFilterableUsers', () => {
  it.each(['admin', 'r1'] as const)(
    'lists at most HISTORY_FILTER_USERS_MAX users, by name (%s)',
    async (who) => {
      const token = who === 'admin' ? h.admin : h.r1.token;
      const reply = (await firstPage(token)).json<HistoryReply>();
      const users = reply.allFilterableUsers ?? [];
      expect(users).toHaveLength(HISTORY_FILTER_USERS_MAX);
      // The first ones by name, as the database orders every user of the scope.
      const all = await t.ownerDb
        .selectFrom('users')
        .select(['name', 'email'])
        .$if(who === 'r1', (q) =>
          q.where((eb) =>
            eb.or([
              eb('id', '=', h.r1.user.id),
              sql<boolean>`ancestors @> ARRAY[${h.r1.user.id}]::uuid[]`,
            ]),
          ),
        )
        .orderBy('name')
        .orderBy('email')
        .execute();
      expect(all.length).toBeGreaterThan(HISTORY_FILTER_USERS_MAX);
      expect(users).toEqual(all.slice(0, HISTORY_FILTER_USERS_MAX));
    },
  );

  it('a user past the cap still filters the history', async () => {
    const last = `many${String(MORE).padStart(4, '0')}@filter.local`;
    const reply = (await firstPage(h.r1.token)).json<HistoryReply>();
    expect(reply.allFilterableUsers?.some((u) => u.email === last)).toBe(false);
    // R1 gives that user credits once it can see it: the filter finds the entry.
    await postCredit(t, h.admin, creditBody(h.r1.user.email, { count: 10 }));
    const given = await postCredit(t, h.r1.token, creditBody(last, { count: 2 }));
    expect(given.statusCode, given.body).toBe(201);
    const filtered = (await firstPage(h.r1.token, { userEmail: last })).json<HistoryReply>();
    expect(filtered.transactions.length).toBeGreaterThan(0);
    expect(filtered.transactions.every((e) => e.to === last || e.by === last)).toBe(true);
  });
});
