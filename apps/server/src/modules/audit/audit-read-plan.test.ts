import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditActionsMatching } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditRowsQuery, type AuditReadFilter, type AuditViewer } from './audit-read.repo.js';

/**
 * The Audit Log's pages on a log of 50,000 entries: each filter is answered by an index, never
 * a sequential scan of the table. The plans are printed for docs/audit.md's notes.
 */

const ENTRIES = 50_000;
let t: TestApp;
let reseller: string;
let actorId: string;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.adminToken();
  const r = await t.createUser(admin, { role: 'Reseller' });
  reseller = r.user.id;
  actorId = (await t.createUser(admin, { role: 'User' })).user.id;
  // One in 20 entries is in the reseller's scope, one in 50 by the user; actions cycle.
  await sql`
    INSERT INTO audit_log (at, actor_user_id, actor_label, actor_role, action, target_type,
      target_id, target_label, scope)
    SELECT now() - make_interval(secs => ${ENTRIES} - g),
      CASE WHEN g % 50 = 0 THEN ${actorId}::uuid END, 'user' || g || '@example.com', 'User',
      (ARRAY['credits.add', 'credits.remove', 'user.update', 'campaign.create', 'auth.sign_in'])[g % 5 + 1],
      'user', 'id-' || g, 'target' || g || '@example.com',
      CASE WHEN g % 20 = 0 THEN ARRAY[${reseller}::uuid] ELSE '{}' END
    FROM generate_series(1, ${ENTRIES}) g`.execute(t.db);
  await sql`ANALYZE audit_log`.execute(t.ownerDb);
}, 120_000);
afterAll(() => t.close());

async function plan(viewer: AuditViewer, f: AuditReadFilter): Promise<string> {
  const rows = await auditRowsQuery(t.db, viewer, f, 50).explain();
  const text = rows.map((r) => String(r['QUERY PLAN'])).join('\n');
  console.log(`${JSON.stringify({ viewer: viewer.kind, ...f })}\n${text}`);
  return text;
}

const ALL: AuditViewer = { kind: 'all' };

describe('the Audit Log queries on 50,000 entries', () => {
  it('pages the whole log on the primary key, backwards', async () => {
    const p = await plan(ALL, {});
    expect(p).toMatch(/Index Scan Backward using audit_log_pkey/);
    expect(await plan(ALL, { before: '25000' })).toMatch(/audit_log_pkey/);
  });

  it('answers an action or an area with the (action, id) index', async () => {
    expect(await plan(ALL, { actions: ['user.update'] })).toMatch(
      /audit_log_action_idx|audit_log_pkey/,
    );
    const area = await plan(ALL, { actions: auditActionsMatching('credits') });
    expect(area).not.toMatch(/Seq Scan on audit_log/);
  });

  it('answers an actor id with the (actor_user_id, id) index', async () => {
    expect(await plan(ALL, { actorUserId: actorId })).toMatch(/audit_log_actor_idx/);
  });

  it('answers a target id with the target index', async () => {
    const p = await plan(ALL, { targetType: 'user', target: 'id-77' });
    expect(p).not.toMatch(/Seq Scan on audit_log/);
  });

  it("answers a reseller's view with the scope's GIN index or the key", async () => {
    const p = await plan({ kind: 'scope', userId: reseller }, {});
    expect(p).toMatch(/audit_log_scope_idx|audit_log_pkey/);
    expect(p).not.toMatch(/Seq Scan on audit_log/);
  });

  it('answers a time range with the key or the (at) index', async () => {
    const p = await plan(ALL, {
      from: new Date(Date.now() - 3_600_000),
      until: new Date(Date.now() - 1_800_000),
    });
    expect(p).not.toMatch(/Seq Scan on audit_log/);
  });
});
