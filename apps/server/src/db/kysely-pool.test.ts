import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { hot, hotName } from './hot.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('kyselyPool: hot statements are named prepared statements', () => {
  it('names a hot query on its connection, leaves the others unnamed', async () => {
    const hotQuery = (n: number) => sql<{ v: number }>`SELECT ${n}::int + 1 AS v`;
    const plain = (n: number) => sql<{ v: number }>`SELECT ${n}::int + 2 AS v`;
    const names = await t.db.transaction().execute(async (tx) => {
      const a = await hot(hotQuery(1)).execute(tx);
      const b = await hot(hotQuery(41)).execute(tx);
      const c = await plain(1).execute(tx);
      expect([a.rows[0]?.v, b.rows[0]?.v, c.rows[0]?.v]).toEqual([2, 42, 3]);
      const { rows } = await sql<{ name: string; statement: string }>`
        SELECT name, statement FROM pg_prepared_statements`.execute(tx);
      return rows;
    });
    const name = hotName(hotQuery(0).compile(t.db).sql);
    expect(name).toMatch(/^herald_hot_\d+$/);
    expect(names.map((r) => r.name)).toContain(name);
    expect(names.some((r) => r.statement.includes('+ 2'))).toBe(false);
  });
});
