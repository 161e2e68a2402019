import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditMessages as m, CLEANUP_CONFIRM_WORD } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { addJob, TASKS } from '../../jobs/job-queue.js';
import { pruneAuditLog, recordAudit, SYSTEM_ACTOR } from './index.js';

/**
 * Retention (docs/audit.md, Retention): the Admin's setting on the security settings, and the
 * daily job that removes older entries through the owner's function while the app runs as its
 * app role; no cleanup removes an entry.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const put = (token: string, payload: Record<string, unknown>) =>
  t.request({ method: 'PUT', url: '/api/settings/security', token, payload });

/** An entry `days` old, tagged by its target id. */
async function entryAged(days: number, tag: string) {
  await sql`
    INSERT INTO audit_log (at, actor_label, action, target_type, target_id, scope)
    VALUES (now() - make_interval(days => ${days}), 'Herald', 'routing.update', 'routing', ${tag},
      '{}')`.execute(t.db);
}

const tags = async () =>
  (
    await t.db
      .selectFrom('audit_log')
      .select('target_id')
      .where('target_id', 'like', 'age-%')
      .orderBy('id')
      .execute()
  ).map((r) => r.target_id);

describe('the audit retention setting', () => {
  it('is 400 days by default, Admin only, 90 to 3650 days', async () => {
    const get = await t.request({ method: 'GET', url: '/api/settings/security', token: admin });
    expect(get.json()).toEqual({ requireTwoFactor: false, auditRetentionDays: 400 });
    for (const days of [89, 3651, 120.5, '120', null]) {
      const res = await put(admin, { requireTwoFactor: false, auditRetentionDays: days });
      expect(res.statusCode, String(days)).toBe(400);
      expect(res.json()).toEqual({ message: m.retentionInvalid });
    }
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const refused = await put(reseller.token, { requireTwoFactor: false, auditRetentionDays: 90 });
    expect(refused.statusCode).toBe(403);

    const set = await put(admin, { requireTwoFactor: false, auditRetentionDays: 120 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ requireTwoFactor: false, auditRetentionDays: 120 });
    // Left out, the retention stays.
    const kept = await put(admin, { requireTwoFactor: false });
    expect(kept.json()).toEqual({ requireTwoFactor: false, auditRetentionDays: 120 });
    const row = await t.db
      .selectFrom('security_settings')
      .select('audit_retention_days')
      .executeTakeFirstOrThrow();
    expect(row.audit_retention_days).toBe(120);
  });
});

describe('the audit-prune job', () => {
  it('removes the entries older than the retention and keeps the younger, as the app role', async () => {
    await put(admin, { requireTwoFactor: false, auditRetentionDays: 120 });
    await entryAged(400, 'age-400');
    await entryAged(121, 'age-121');
    await entryAged(119, 'age-119');
    await entryAged(0, 'age-0');
    await addJob(t.db, TASKS.pruneAuditLog, {});
    await t.runDueJobs();
    const left =
      await sql`SELECT 1 FROM graphile_worker.jobs WHERE task_identifier = ${TASKS.pruneAuditLog}`.execute(
        t.db,
      );
    expect(left.rows, 'the job failed and waits for a retry').toEqual([]);
    expect(await tags()).toEqual(['age-119', 'age-0']);
  });

  it('goes on in batches until one comes back short', async () => {
    for (let i = 0; i < 5; i++) await entryAged(200, `age-old-${i}`);
    expect(await pruneAuditLog(t.db, 2)).toBe(5);
    expect(await tags()).toEqual(['age-119', 'age-0']);
    expect(await pruneAuditLog(t.db, 2)).toBe(0);
  });

  it('is the only way out: storage cleanup leaves the entries of deleted users', async () => {
    const doomed = await t.createUser(admin, { role: 'User' });
    await recordAudit(t.db, {
      actor: SYSTEM_ACTOR,
      action: 'user.block',
      target: {
        type: 'user',
        id: doomed.user.id,
        label: doomed.user.email,
        subjectUserId: doomed.user.id,
      },
    });
    const today = new Date().toISOString().slice(0, 10);
    const res = await t.request({
      method: 'DELETE',
      url: '/api/data/cleanup',
      token: admin,
      payload: {
        confirm: CLEANUP_CONFIRM_WORD,
        dataType: 'users',
        fromDate: today,
        toDate: today,
        tzOffset: 0,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const gone = await t.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', doomed.user.id)
      .executeTakeFirst();
    expect(gone).toBeUndefined();
    const entry = await t.db
      .selectFrom('audit_log')
      .select('target_label')
      .where('target_id', '=', doomed.user.id)
      .executeTakeFirst();
    expect(entry?.target_label).toBe(doomed.user.email);
    expect(await tags()).toEqual(['age-119', 'age-0']);
  });
});
