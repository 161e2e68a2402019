import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateCampaignReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { auditRows, lastAuditId, onlyAuditRow, adminUserId } from '../audit/audit.test-fixtures.js';
import { makeKey } from '../api-keys/api-keys.test-fixtures.js';
import {
  NORMAL,
  createCampaign,
  csvFile,
  numbers,
  postReport,
  putStatus,
} from './campaign-actions.test-fixtures.js';
import { fund, postCampaign } from './campaigns.test-fixtures.js';

/** The audit entries of campaign creation, status changes and report uploads. */

let t: TestApp;
let h: Hierarchy;
let adminId: string;
beforeAll(async () => {
  // The engine stays off: its own moves are dispatch-audit.test.ts's.
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
  await fund(t, h.admin, h.u2.user.email, NORMAL, 100);
  adminId = await adminUserId(t.db);
});
afterAll(() => t.close());

const status = (before: string, after: string) => ({ status: { before, after } });
const post = (url: string, token: string, payload?: object) =>
  t.request({ method: 'POST', url, token, ...(payload && { payload }) });

describe('campaign.create', () => {
  it('one entry for a web creation, on the owner, with its status, type and recipients', async () => {
    const since = await lastAuditId(t.db);
    const id = await createCampaign(t, h.u1.token, numbers(3));
    const row = await onlyAuditRow(t.db, { since });
    expect(row).toMatchObject({
      action: 'campaign.create',
      actor_user_id: h.u1.user.id,
      actor_role: 'User',
      actor_api_key_id: null,
      target_type: 'campaign',
      target_id: id,
      target_label: 'Hello',
      subject_user_id: h.u1.user.id,
    });
    expect(row.changes).toEqual({
      status: { before: null, after: 'Submitted' },
      creditType: { before: null, after: NORMAL },
      recipients: { before: null, after: 3 },
    });
  });

  it("a Reseller's campaign for its user names that user as the subject", async () => {
    const since = await lastAuditId(t.db);
    const id = await createCampaign(t, h.r1.token, numbers(2), { userEmail: h.u2.user.email });
    const rows = await auditRows(t.db, { since, action: 'campaign.create' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_user_id: h.r1.user.id,
      target_id: id,
      subject_user_id: h.u2.user.id,
    });
  });

  it('a refused creation writes none (no credits, invalid input)', async () => {
    const since = await lastAuditId(t.db);
    const poor = await postCampaign(t, h.u3.token, {
      creditType: NORMAL,
      message: 'Hello',
      to: numbers(2).join(','),
    });
    expect(poor.statusCode).toBe(409);
    const empty = await postCampaign(t, h.u1.token, {
      creditType: NORMAL,
      message: 'Hello',
      to: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(await auditRows(t.db, { since })).toEqual([]);
  });

  it('the public API names the API key, and a replay writes no second entry', async () => {
    const key = await makeKey(t, h.u1.token, 'Audit script');
    const since = await lastAuditId(t.db);
    const body = {
      creditType: NORMAL,
      message: 'From the API',
      recipients: numbers(2, '97000000'),
    };
    const send = () =>
      t.request({
        method: 'POST',
        url: '/api/v1/campaigns',
        token: key.secret,
        payload: body,
        headers: { 'idempotency-key': 'audit-create-1' },
      });
    const res = await send();
    expect(res.statusCode, res.body).toBe(201);
    expect((await send()).headers['idempotent-replayed']).toBe('true');
    const row = await onlyAuditRow(t.db, { since });
    expect(row).toMatchObject({
      action: 'campaign.create',
      actor_user_id: h.u1.user.id,
      actor_api_key_id: key.key.id,
      target_id: res.json<CreateCampaignReply>().campaign._id,
    });
  });
});

describe('campaign.status_change', () => {
  it("the owner's cancellation request, on the web and the public API, one entry each", async () => {
    const id = await createCampaign(t, h.u1.token, numbers(2));
    let since = await lastAuditId(t.db);
    expect((await putStatus(t, h.u1.token, id, 'Cancellation Requested')).statusCode).toBe(200);
    const web = await onlyAuditRow(t.db, { since });
    expect(web).toMatchObject({
      action: 'campaign.status_change',
      actor_user_id: h.u1.user.id,
      target_id: id,
      subject_user_id: h.u1.user.id,
    });
    expect(web.changes).toEqual(status('Submitted', 'Cancellation Requested'));

    const other = await createCampaign(t, h.u1.token, numbers(2, '96000000'));
    const key = await makeKey(t, h.u1.token, 'Cancel script');
    since = await lastAuditId(t.db);
    const res = await post(`/api/v1/campaigns/${other}/cancel`, key.secret);
    expect(res.statusCode, res.body).toBe(200);
    const api = await onlyAuditRow(t.db, { since });
    expect(api).toMatchObject({ actor_api_key_id: key.key.id, target_id: other });
    expect(api.changes).toEqual(status('Submitted', 'Cancellation Requested'));
  });

  it('a refused move writes none: forbidden, the same status, not allowed, unknown', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(2));
    const since = await lastAuditId(t.db);
    expect((await putStatus(t, h.u1.token, id, 'Approved')).statusCode).toBe(403);
    expect((await putStatus(t, h.admin, id, 'Submitted')).statusCode).toBe(409);
    expect((await putStatus(t, h.admin, id, 'Nonsense')).statusCode).toBe(400);
    expect((await putStatus(t, h.u3.token, id, 'Cancellation Requested')).statusCode).toBe(404);
    expect((await post(`/api/campaigns/${id}/reject`, h.admin, { reason: '' })).statusCode).toBe(
      400,
    );
    expect(await auditRows(t.db, { since })).toEqual([]);
  });

  it("an Admin's Change Status, Approve and Reject with its reason", async () => {
    const a = await createCampaign(t, h.u1.token, numbers(2));
    const b = await createCampaign(t, h.u1.token, numbers(2));
    const since = await lastAuditId(t.db);
    expect((await putStatus(t, h.admin, a, 'Pending Approval')).statusCode).toBe(200);
    expect((await post(`/api/campaigns/${a}/approve`, h.admin)).statusCode).toBe(200);
    const reject = await post(`/api/campaigns/${b}/reject`, h.admin, { reason: 'Wrong sender' });
    expect(reject.statusCode, reject.body).toBe(200);
    // Approving again is refused: no entry.
    expect((await post(`/api/campaigns/${a}/approve`, h.admin)).statusCode).toBe(409);
    const rows = await auditRows(t.db, { since });
    expect(rows.map((r) => [r.target_id, r.actor_user_id, r.changes])).toEqual([
      [a, adminId, status('Submitted', 'Pending Approval')],
      [a, adminId, status('Pending Approval', 'Approved')],
      [
        b,
        adminId,
        { ...status('Submitted', 'Rejected'), reason: { before: null, after: 'Wrong sender' } },
      ],
    ]);
    expect(rows.every((r) => r.action === 'campaign.status_change')).toBe(true);
  });

  it('a bulk approval writes one entry per approved campaign, none for a refused one', async () => {
    const a = await createCampaign(t, h.u1.token, numbers(2));
    const done = await createCampaign(t, h.u1.token, numbers(2));
    expect((await post(`/api/campaigns/${done}/approve`, h.admin)).statusCode).toBe(200);
    const since = await lastAuditId(t.db);
    const res = await post('/api/campaigns/approve', h.admin, { ids: [a, done] });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await auditRows(t.db, { since });
    expect(rows.map((r) => [r.target_id, r.changes])).toEqual([
      [a, status('Submitted', 'Approved')],
    ]);
  });
});

describe('campaign.report_upload', () => {
  it('one upload entry and one status move; a re-upload moves no status', async () => {
    const to = numbers(2);
    const id = await createCampaign(t, h.u1.token, to);
    let since = await lastAuditId(t.db);
    const csv = `number,status\n${to[0]},Delivered\n${to[1]},Failed\n`;
    const res = await postReport(t, h.admin, id, csvFile(csv));
    expect(res.statusCode, res.body).toBe(200);
    const rows = await auditRows(t.db, { since });
    expect(rows.map((r) => [r.action, r.actor_user_id, r.target_id, r.changes])).toEqual([
      [
        'campaign.report_upload',
        adminId,
        id,
        { reportCount: { before: null, after: 2 }, reportDelivered: { before: null, after: 1 } },
      ],
      ['campaign.status_change', adminId, id, status('Submitted', 'Report Generated')],
    ]);
    expect(rows[0]!.subject_user_id).toBe(h.u1.user.id);

    since = await lastAuditId(t.db);
    expect((await postReport(t, h.admin, id, csvFile(csv))).statusCode).toBe(200);
    expect((await auditRows(t.db, { since })).map((r) => r.action)).toEqual([
      'campaign.report_upload',
    ]);
  });

  it('a refused upload writes none (no number of the campaign, not an Admin)', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(2));
    const since = await lastAuditId(t.db);
    const wrong = await postReport(
      t,
      h.admin,
      id,
      csvFile('number,status\n9111111111,Delivered\n'),
    );
    expect(wrong.statusCode).toBe(400);
    const user = await postReport(t, h.u1.token, id, csvFile('number,status\n'));
    expect(user.statusCode).toBe(403);
    expect(await auditRows(t.db, { since })).toEqual([]);
  });
});
