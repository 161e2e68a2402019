import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../../test/harness.js';
import { auditRows, lastAuditId, onlyAuditRow } from '../../audit/audit.test-fixtures.js';
import {
  createCampaign,
  NORMAL,
  putStatus,
} from '../../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../../campaigns/campaigns.test-fixtures.js';
import { runFinalize } from '../settle/finalize.js';
import { setDispatch, setStates } from '../status/status.test-fixtures.js';
import { pauseForProvider } from './dispatch-control.service.js';
import { phones, removeDispatchJobs } from './dispatch.test-fixtures.js';

/**
 * The delivery engine's campaign moves in the audit log: its start, the Admin's pause and
 * resume, the provider's pause and the settlement, each one entry in its own transaction.
 */

let t: TestApp;
let admin: string;
let adminId: string;
let owner: { id: string; email: string };
let ownerToken: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  const user = await t.createUser(admin, { role: 'User' });
  owner = user.user;
  ownerToken = user.token;
  await fund(t, admin, owner.email, NORMAL, 100);
  const row = await t.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', ADMIN_EMAIL)
    .executeTakeFirstOrThrow();
  adminId = row.id;
});
afterAll(() => t.close());

const HERALD = { actor_user_id: null, actor_label: 'Herald', actor_role: null, ip: null };
const control = (id: string, action: 'pause' | 'resume', token?: string) =>
  t.request({ method: 'POST', url: `/api/campaigns/${id}/delivery/${action}`, token });

/** A campaign the Admin approved, which the engine took into Processing; its jobs removed. */
async function sending(count: number, start: number) {
  const id = await createCampaign(t, ownerToken, phones(count, start));
  const res = await putStatus(t, admin, id, 'Approved');
  expect(res.statusCode, res.body).toBe(200);
  await removeDispatchJobs(t, id);
  return id;
}

describe('the engine in the audit log', () => {
  it("an approval is the Admin's entry, then Herald's own move to Processing", async () => {
    const since = await lastAuditId(t.db);
    const id = await sending(2, 100);
    const rows = await auditRows(t.db, { since, action: 'campaign.status_change' });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      actor_user_id: adminId,
      target_id: id,
      subject_user_id: owner.id,
      changes: { status: { before: 'Submitted', after: 'Approved' } },
    });
    expect(rows[1]).toMatchObject({
      ...HERALD,
      target_type: 'campaign',
      target_id: id,
      target_label: 'Hello',
      subject_user_id: owner.id,
      changes: { status: { before: 'Approved', after: 'Processing' } },
    });
  });

  it("the Admin's pause and resume, one entry each; a refused one none", async () => {
    const id = await sending(2, 200);
    const since = await lastAuditId(t.db);
    expect((await control(id, 'resume', admin)).statusCode).toBe(409);
    expect((await control(id, 'pause', ownerToken)).statusCode).toBe(403);
    expect(await auditRows(t.db, { since })).toEqual([]);
    expect((await control(id, 'pause', admin)).statusCode).toBe(200);
    expect((await control(id, 'pause', admin)).statusCode).toBe(409);
    expect((await control(id, 'resume', admin)).statusCode).toBe(200);
    await removeDispatchJobs(t, id);
    const rows = await auditRows(t.db, { since });
    expect(rows.map((r) => [r.action, r.actor_user_id, r.target_id, r.changes])).toEqual([
      [
        'campaign.status_change',
        adminId,
        id,
        { dispatchState: { before: 'running', after: 'paused' } },
      ],
      [
        'campaign.status_change',
        adminId,
        id,
        { dispatchState: { before: 'paused', after: 'running' } },
      ],
    ]);
  });

  it("the provider's pause is Herald's entry with the reason, once", async () => {
    const id = await sending(2, 300);
    const since = await lastAuditId(t.db);
    const pause = () =>
      t.db.transaction().execute((tx) => pauseForProvider(tx, id, 'Template paused'));
    expect(await pause()).toBe(true);
    expect(await pause()).toBe(false);
    const row = await onlyAuditRow(t.db, { since });
    expect(row).toMatchObject({ ...HERALD, target_id: id, subject_user_id: owner.id });
    expect(row.changes).toEqual({
      dispatchState: { before: 'running', after: 'paused' },
      reason: { before: null, after: 'Template paused' },
    });
  });

  it('the settlement moves Processing to Completed and Report Generated, once', async () => {
    const to = phones(2, 400);
    const id = await sending(2, 400);
    await setDispatch(t, id, 'Processing', 'done');
    await setStates(t, id, { [to[0]!]: 'delivered', [to[1]!]: 'failed' });
    const since = await lastAuditId(t.db);
    await runFinalize(t.app.ctx, id);
    await runFinalize(t.app.ctx, id);
    const rows = await auditRows(t.db, { since });
    expect(rows.map((r) => [r.action, r.actor_label, r.actor_user_id, r.changes])).toEqual([
      [
        'campaign.status_change',
        'Herald',
        null,
        { status: { before: 'Processing', after: 'Completed' } },
      ],
      [
        'campaign.status_change',
        'Herald',
        null,
        { status: { before: 'Completed', after: 'Report Generated' } },
      ],
    ]);
    expect(rows.every((r) => r.target_id === id && r.subject_user_id === owner.id)).toBe(true);
  });

  it("an Admin's cancel of a sending campaign is one entry; its settlement adds none", async () => {
    const id = await sending(2, 500);
    const since = await lastAuditId(t.db);
    expect((await putStatus(t, admin, id, 'Cancelled')).statusCode).toBe(200);
    await runFinalize(t.app.ctx, id);
    const rows = await auditRows(t.db, { since });
    expect(rows.map((r) => [r.actor_user_id, r.changes])).toEqual([
      [adminId, { status: { before: 'Processing', after: 'Cancelled' } }],
    ]);
  });
});
