import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BALANCES_PAGE_DEFAULT, BALANCES_PAGE_MAX, CREDIT_TYPES } from '@herald/contract';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';
import type { Actor } from '../../policies/scope.js';
import { balancePageUsers } from './credits.repo.js';

/**
 * Query plans of a GET /api/credits/balances page on BALANCES_PLAN_USERS users (default 50,000,
 * made in SQL: 10 resellers of 5,000 users each, most holding balance rows): an Admin's page
 * walks users_email_key in order and stops after the page (no sort of every user); a reseller's
 * reads its subtree by an index, never every user. BALANCES_PLAN_LOG=1 prints the plans.
 */
const USERS = Number(process.env.BALANCES_PLAN_USERS ?? 50_000);
const LOG = process.env.BALANCES_PLAN_LOG === '1';

let t: TestApp;
let admin: Actor;
let reseller: Actor;

beforeAll(async () => {
  t = await createTestApp();
  const adminRow = await t.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', ADMIN_EMAIL)
    .executeTakeFirstOrThrow();
  admin = { id: adminRow.id, role: 'Admin' };
  await sql`
    WITH r AS (
      INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
      SELECT 'r' || i || '@plan.local', 'R ' || i, 'Reseller', 'x', ${admin.id}::uuid,
             ARRAY[${admin.id}::uuid] FROM generate_series(1, 10) i RETURNING id, ancestors, email),
    u AS (
      INSERT INTO users (email, name, role, password_hash, created_by, ancestors)
      SELECT 'u' || k || '.' || r.email, 'U ' || k, 'User', 'x', r.id, r.ancestors || r.id
      FROM r, generate_series(1, ${Math.ceil(USERS / 10)}::int) k RETURNING id, email)
    INSERT INTO credit_balances (user_id, credit_type, balance, total_added)
    SELECT u.id, ct, 5, 5 FROM u, unnest(${sql.val(CREDIT_TYPES.slice(0, 3))}::text[]) ct
    WHERE length(u.email) % 4 <> 0`.execute(t.ownerDb);
  await sql`VACUUM (ANALYZE)`.execute(t.ownerDb);
  const r = await t.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'r3@plan.local')
    .executeTakeFirstOrThrow();
  reseller = { id: r.id, role: 'Reseller' };
}, 120_000);
afterAll(() => t.close());

function literal(v: unknown): string {
  if (typeof v === 'number') return String(v);
  return `'${String(v).replace(/'/g, "''")}'`;
}

async function plan(actor: Actor, limit: number, cursor?: string): Promise<string> {
  const q = balancePageUsers(t.db, actor, limit + 1, cursor).compile();
  const text = q.sql.replace(/\$(\d+)/g, (_, n: string) => literal(q.parameters[Number(n) - 1]));
  const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${sql.raw(text)}`.execute(t.db);
  const out = rows.map((row) => row['QUERY PLAN']).join('\n');
  if (LOG) console.log(out);
  return out;
}

describe('balances page plans', () => {
  it.each([BALANCES_PAGE_DEFAULT, BALANCES_PAGE_MAX])(
    'an Admin`s page of %i walks the email index and sorts nothing',
    async (limit) => {
      for (const cursor of [undefined, 'u2000.r5@plan.local']) {
        const p = await plan(admin, limit, cursor);
        expect(p, p).toMatch(/Index (Only )?Scan using users_email_key/);
        expect(p, p).not.toMatch(/Sort|Seq Scan on users/);
      }
    },
  );

  it('a reseller`s page reads its subtree by an index, never every user', async () => {
    for (const cursor of [undefined, 'u2000.r3@plan.local']) {
      const p = await plan(reseller, BALANCES_PAGE_DEFAULT, cursor);
      expect(p, p).toMatch(/users_email_key|users_ancestors_idx/);
      expect(p, p).not.toMatch(/Seq Scan on users/);
    }
  });
});
