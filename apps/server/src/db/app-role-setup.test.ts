import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { appRoleName, ensureAppRole, withUser } from './app-role.js';
import { openDatabase, type DatabaseHandle } from './database.js';

/** How the app role is set up: names, an operator's own role, checks, later migrations. */
let t: TestApp;
let owner: DatabaseHandle;
const made: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  owner = openDatabase(t.databaseUrl, 2);
});
afterAll(async () => {
  for (const role of made) {
    const r = pg.escapeIdentifier(role);
    await owner.pool.query(`DROP OWNED BY ${r}; DROP ROLE IF EXISTS ${r}`).catch(() => {});
  }
  await owner?.close();
  await t?.close();
});

/** A login role an operator made, with `attributes`; dropped after the file. */
async function operatorRole(attributes = ''): Promise<string> {
  const role = `herald_op_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await owner.pool.query(`CREATE ROLE ${role} LOGIN PASSWORD 'op-password' ${attributes}`);
  made.push(role);
  return role;
}

async function queryAs(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

describe('appRoleName', () => {
  it('is the database name with _app, or a hash where that would not be a plain name', () => {
    expect(appRoleName('herald')).toBe('herald_app');
    expect(appRoleName('Herald-Prod')).toMatch(/^herald_app_[0-9a-f]{16}$/);
    expect(appRoleName('x'.repeat(60))).toMatch(/^herald_app_[0-9a-f]{16}$/);
    expect(appRoleName('a')).not.toBe(appRoleName('b'));
  });

  it('withUser swaps the user and keeps the host, database and options', () => {
    expect(withUser('postgres://o:secret@db:5433/herald?sslmode=require', 'app', 'p/w')).toBe(
      'postgres://app:p%2Fw@db:5433/herald?sslmode=require',
    );
  });
});

describe('ensureAppRole', () => {
  it('answers the same role and password at every start', async () => {
    const first = await ensureAppRole(owner.pool, { ownerUrl: t.databaseUrl });
    expect(first).toBe(t.app.ctx.databaseUrl);
    expect(await ensureAppRole(owner.pool, { ownerUrl: t.databaseUrl })).toBe(first);
  });

  it("grants an operator's role (APP_DATABASE_URL) rows only", async () => {
    const role = await operatorRole();
    const appUrl = withUser(t.databaseUrl, role, 'op-password');
    expect(await ensureAppRole(owner.pool, { ownerUrl: t.databaseUrl, appUrl })).toBe(appUrl);
    const { rows } = await queryAs(appUrl, 'SELECT count(*)::int AS n FROM users');
    expect(rows[0]).toEqual({ n: 1 });
    await expect(queryAs(appUrl, 'TRUNCATE credit_transactions')).rejects.toThrow(
      /permission denied/,
    );
  });

  it('refuses a role with more than it needs', async () => {
    const role = await operatorRole('CREATEDB');
    const appUrl = withUser(t.databaseUrl, role, 'op-password');
    await expect(ensureAppRole(owner.pool, { ownerUrl: t.databaseUrl, appUrl })).rejects.toThrow(
      /must be able to read and write rows and nothing more, but it has SUPERUSER, CREATEROLE, CREATEDB/,
    );
    await expect(
      ensureAppRole(owner.pool, { ownerUrl: t.databaseUrl, appUrl: t.databaseUrl }),
    ).rejects.toThrow(/is the owner/);
  });

  it('grants what a later migration creates, through the default privileges', async () => {
    await sql`CREATE TABLE later_table (id serial PRIMARY KEY, note text)`.execute(t.ownerDb);
    await sql`INSERT INTO later_table (note) VALUES ('by the app')`.execute(t.db);
    const { rows } = await sql<{ note: string }>`SELECT note FROM later_table`.execute(t.db);
    expect(rows).toEqual([{ note: 'by the app' }]);
    await expect(sql`ALTER TABLE later_table ADD COLUMN x int`.execute(t.db)).rejects.toThrow(
      /must be owner/,
    );
  });
});
