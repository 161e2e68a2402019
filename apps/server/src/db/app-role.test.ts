import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { startJobRunner } from '../jobs/runner.js';

/**
 * Least privilege: requests and jobs run as a role that can read and write rows but
 * cannot change the schema or get around the ledger's immutability trigger
 * (0002-credits.ts: credit_transactions, credit_transactions_immutable).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

class Rollback extends Error {}

/** Runs statements on the app's own connection, in a transaction that never commits. */
async function asApp(statement: string): Promise<void> {
  try {
    await t.db.transaction().execute(async (tx) => {
      await sql.raw(statement).execute(tx);
      throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
}

const refused = /must be owner|permission denied/;

describe('the role that serves requests', () => {
  it('is not a superuser and not the owner', async () => {
    const { rows } = await sql<{ super: boolean; owner: string; me: string }>`
      SELECT rolsuper AS super, current_user AS me,
        (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'credit_transactions') AS owner
      FROM pg_roles WHERE rolname = current_user`.execute(t.db);
    expect(rows[0]?.super).toBe(false);
    expect(rows[0]?.me).not.toBe(rows[0]?.owner);
  });

  it.each([
    ['disable the ledger trigger', 'ALTER TABLE credit_transactions DISABLE TRIGGER ALL'],
    [
      'drop the ledger trigger',
      'DROP TRIGGER credit_transactions_immutable ON credit_transactions',
    ],
    ['replace the trigger function', 'DROP FUNCTION credit_transactions_immutable() CASCADE'],
    ['add a column', 'ALTER TABLE credit_transactions ADD COLUMN note text'],
    ['drop a table', 'DROP TABLE idempotency_keys'],
    ['create a table', 'CREATE TABLE intruder (id int)'],
    ['create a schema', 'CREATE SCHEMA intruder'],
    ['create a table in the job schema', 'CREATE TABLE graphile_worker.intruder (id int)'],
    ['skip triggers by replication role', 'SET session_replication_role = replica'],
    ['truncate the ledger', 'TRUNCATE credit_transactions'],
    ['truncate the balances', 'TRUNCATE credit_balances'],
    ['take the ledger over', 'ALTER TABLE credit_transactions OWNER TO CURRENT_USER'],
    ['read the owner-only schema', 'SELECT * FROM herald_private.app_role'],
  ])('cannot %s', async (_what, statement) => {
    await expect(asApp(statement)).rejects.toThrow(refused);
  });

  it('leaves the ledger trigger in place and enabled', async () => {
    const { rows } = await sql<{ enabled: string }>`
      SELECT tgenabled AS enabled FROM pg_trigger
      WHERE tgname = 'credit_transactions_immutable'`.execute(t.db);
    expect(rows).toEqual([{ enabled: 'O' }]);
  });

  it('reads and writes rows, uses a temp table, and the ledger stays immutable', async () => {
    const admin = await t.adminToken();
    const { user } = await t.createUser(admin, { role: 'User' });
    const res = await t.request({
      method: 'POST',
      url: '/api/credits',
      token: admin,
      payload: {
        to: user.email,
        creditType: 'Normal Message - domestic',
        count: 5,
        rate: 1,
        type: 'Added',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const n = await t.db
      .selectFrom('credit_transactions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBeGreaterThan(0);
    await asApp('CREATE TEMP TABLE staging (id int); INSERT INTO staging VALUES (1)');
    await expect(
      t.db.updateTable('credit_transactions').set({ reason: 'x' }).execute(),
    ).rejects.toThrow(/immutable/);
  });

  it('runs a job through the background runner', async () => {
    const runner = await startJobRunner(t.app.ctx);
    try {
      await t.app.ctx.outbox.queue(t.db, {
        to: 'someone@test.local',
        subject: 'least privilege',
        text: 'sent by the app role',
      });
      const deadline = Date.now() + 20_000;
      while (!t.mails.some((m) => m.subject === 'least privilege') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(t.mails.map((m) => m.subject)).toContain('least privilege');
    } finally {
      await runner.stop();
    }
  });
});
