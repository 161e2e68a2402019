import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditChanges, recordAudit, SYSTEM_ACTOR, type AuditActor } from './index.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const actorFor = (user: { id: string; email: string }): AuditActor => ({
  userId: user.id,
  apiKeyId: null,
  label: user.email,
  role: 'Reseller',
  ip: '127.0.0.1',
  userAgent: 'vitest',
});

describe('the audit log', () => {
  it('keeps the actor and the subject with their ancestors in the scope', async () => {
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const user = await t.createUser(reseller.token, { role: 'User' });
    await recordAudit(t.db, {
      actor: actorFor(reseller.user),
      action: 'credits.add',
      target: {
        type: 'user',
        id: user.user.id,
        label: user.user.email,
        subjectUserId: user.user.id,
      },
      changes: { balance: { before: 0, after: 10 } },
    });
    const row = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', user.user.id)
      .where('action', '=', 'credits.add')
      .executeTakeFirstOrThrow();
    const adminRow = await t.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'Admin')
      .executeTakeFirstOrThrow();
    expect([...row.scope].sort()).toEqual([adminRow.id, reseller.user.id, user.user.id].sort());
    expect(row.changes).toEqual({ balance: { before: 0, after: 10 } });
    expect(row.action).toBe('credits.add');
  });

  it('refuses UPDATE, DELETE and TRUNCATE, for the app role and for the owner', async () => {
    await recordAudit(t.db, {
      actor: SYSTEM_ACTOR,
      action: 'cleanup.run',
      target: { type: 'cleanup', id: null, label: null, subjectUserId: null },
    });
    for (const db of [t.db, t.ownerDb]) {
      await expect(sql`UPDATE audit_log SET action = 'x'`.execute(db)).rejects.toThrow(
        /immutable|permission denied/,
      );
      await expect(sql`DELETE FROM audit_log`.execute(db)).rejects.toThrow(
        /immutable|permission denied/,
      );
      await expect(sql`TRUNCATE audit_log`.execute(db)).rejects.toThrow(
        /immutable|permission denied/,
      );
    }
    // Even the owner's session setting alone does not open the door to the app role.
    await expect(
      t.db.transaction().execute(async (tx) => {
        await sql`SELECT set_config('herald.audit_prune', 'on', true)`.execute(tx);
        await sql`DELETE FROM audit_log`.execute(tx);
      }),
    ).rejects.toThrow(/immutable/);
  });

  it('prunes only entries older than the retention', async () => {
    const before = await t.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const removed = await sql<{ n: string }>`SELECT audit_log_prune(1000) AS n`.execute(t.db);
    expect(removed.rows[0]!.n).toBe('0');
    const after = await t.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});

describe('auditChanges', () => {
  it('keeps changed fields only and never a secret', () => {
    expect(
      auditChanges(
        { name: 'A', role: 'User', password_hash: 'x', apiKey: 'k', at: new Date(0) },
        { name: 'B', role: 'User', password_hash: 'y', apiKey: 'j', at: new Date(0) },
      ),
    ).toEqual({ name: { before: 'A', after: 'B' } });
  });
});
