import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { compiler, param, prepared, preparedName } from './prepared.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const plusOne = prepared(
  'test.plusOne',
  { n: param<number>() },
  (p) => sql<{ v: number }>`SELECT ${p.n}::int + 1 AS v`,
);

/** Two parameters, one used twice, and a constant the builder turns into a parameter. */
const emails = prepared(
  'test.emails',
  { prefix: param<string>(), role: param<'Admin' | 'User'>() },
  (p) =>
    compiler
      .selectFrom('users')
      .select('email')
      .where((eb) =>
        eb.or([
          eb('email', 'like', p.prefix),
          eb.and([eb('role', '=', p.role), eb('email', 'like', p.prefix)]),
        ]),
      )
      .orderBy('email')
      .limit(2),
);

describe('prepared statements', () => {
  it('are named on the connection inside a transaction; other queries stay unnamed', async () => {
    const names = await t.db.transaction().execute(async (tx) => {
      const a = await plusOne.run(tx, { n: 1 });
      const b = await plusOne.run(tx, { n: 41 });
      const c = await sql<{ v: number }>`SELECT ${1}::int + 2 AS v`.execute(tx);
      expect([a[0]?.v, b[0]?.v, c.rows[0]?.v]).toEqual([2, 42, 3]);
      const { rows } = await sql<{ name: string; statement: string }>`
        SELECT name, statement FROM pg_prepared_statements`.execute(tx);
      return rows;
    });
    expect(preparedName(plusOne.text)).toBe('test.plusOne');
    expect(names.map((r) => r.name)).toContain('test.plusOne');
    expect(names.some((r) => r.statement.includes('+ 2'))).toBe(false);
  });

  it('bind each value where its parameter appears, and keep the constants', async () => {
    expect(emails.text).toMatch(/\$1.*\$2.*\$3.*limit \$4/);
    for (const db of [t.app.ctx.pool, t.db]) {
      const rows = await emails.run(db, { prefix: 'admin%', role: 'Admin' });
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.length).toBeLessThanOrEqual(2);
      for (const row of rows) expect(row.email).toMatch(/^admin/);
      expect(await emails.run(db, { prefix: 'nobody%', role: 'User' })).toEqual([]);
    }
  });

  it('refuse a second statement with the same name and an unused parameter', () => {
    expect(() => prepared('test.plusOne', {}, () => sql`SELECT 2`)).toThrow(/test.plusOne/);
    expect(() => prepared('test.unused', { n: param<number>() }, () => sql`SELECT 3`)).toThrow(
      /not used: n/,
    );
  });
});
