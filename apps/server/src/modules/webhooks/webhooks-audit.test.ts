import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditRows, lastAuditId, onlyAuditRow } from '../audit/audit.test-fixtures.js';
import {
  makeEndpoint,
  postEndpoint,
  startReceiver,
  type Receiver,
} from './webhooks.test-fixtures.js';

/** Webhook endpoints' audit entries: never the signing secret. */

let t: TestApp;
let user: { id: string; email: string };
let token: string;
let other: string;
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', DELIVERY_DISPATCH: 'off' });
  const admin = await t.adminToken();
  const u = await t.createUser(admin, { role: 'User' });
  user = u.user;
  token = u.token;
  other = (await t.createUser(admin, { role: 'User' })).token;
});
afterAll(() => Promise.all([t.close(), rx.close()]));

const URL_A = 'http://127.0.0.1:9/a';
const URL_B = 'http://127.0.0.1:9/b';
const patch = (id: string, payload: object, as = token) =>
  t.request({ method: 'PATCH', url: `/api/webhooks/${id}`, token: as, payload });

describe('webhook endpoints in the audit log', () => {
  it('create: one entry with the URL, events and description, not the secret', async () => {
    const since = await lastAuditId(t.db);
    const made = await makeEndpoint(t, token, URL_A);
    const row = await onlyAuditRow(t.db, { since });
    expect(row).toMatchObject({
      action: 'webhook_endpoint.create',
      actor_user_id: user.id,
      target_type: 'webhook_endpoint',
      target_id: made.endpoint.id,
      target_label: URL_A,
      subject_user_id: user.id,
    });
    expect(row.changes).toEqual({
      url: { before: null, after: URL_A },
      description: { before: null, after: 'Test' },
      events: { before: null, after: ['campaign.status_changed'] },
    });
    expect(JSON.stringify(row)).not.toContain(made.secret);
  });

  it('update, disable and enable: one entry each; an edit changing nothing writes none', async () => {
    const { endpoint } = await makeEndpoint(t, token, URL_A);
    const since = await lastAuditId(t.db);
    expect((await patch(endpoint.id, { url: URL_B, description: 'Test' })).statusCode).toBe(200);
    expect((await patch(endpoint.id, { enabled: false })).statusCode).toBe(200);
    expect((await patch(endpoint.id, { enabled: false })).statusCode).toBe(200);
    expect((await patch(endpoint.id, { enabled: true, description: 'Live' })).statusCode).toBe(200);
    const rows = await auditRows(t.db, { since });
    expect(rows.map((r) => [r.action, r.target_label, r.changes])).toEqual([
      ['webhook_endpoint.update', URL_B, { url: { before: URL_A, after: URL_B } }],
      ['webhook_endpoint.disable', URL_B, { enabled: { before: true, after: false } }],
      ['webhook_endpoint.update', URL_B, { description: { before: 'Test', after: 'Live' } }],
      ['webhook_endpoint.enable', URL_B, { enabled: { before: false, after: true } }],
    ]);
  });

  it('rotate_secret and delete: one entry each, no secret', async () => {
    const { endpoint } = await makeEndpoint(t, token, URL_A);
    const since = await lastAuditId(t.db);
    const rotated = await t.request({
      method: 'POST',
      url: `/api/webhooks/${endpoint.id}/rotate-secret`,
      token,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/webhooks/${endpoint.id}`,
      token,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const rows = await auditRows(t.db, { since });
    expect(rows.map((r) => [r.action, r.target_id, r.subject_user_id])).toEqual([
      ['webhook_endpoint.rotate_secret', endpoint.id, user.id],
      ['webhook_endpoint.delete', endpoint.id, user.id],
    ]);
    expect(rows[0]!.changes).toBeNull();
    expect(JSON.stringify(rows)).not.toContain(rotated.json<{ secret: string }>().secret);
    expect(rows[1]!.changes).toEqual({
      url: { before: URL_A, after: null },
      events: { before: ['campaign.status_changed'], after: null },
    });
  });

  it("a refused change writes none: another's endpoint, invalid input, gone", async () => {
    const { endpoint } = await makeEndpoint(t, token, URL_A);
    const since = await lastAuditId(t.db);
    expect((await patch(endpoint.id, { enabled: false }, other)).statusCode).toBe(404);
    expect((await patch(endpoint.id, { url: 'not a url' })).statusCode).toBe(400);
    expect((await postEndpoint(t, token, { url: URL_A, events: [] })).statusCode).toBe(400);
    const del = (as: string) =>
      t.request({ method: 'DELETE', url: `/api/webhooks/${endpoint.id}`, token: as });
    expect((await del(other)).statusCode).toBe(404);
    const rotate = await t.request({
      method: 'POST',
      url: `/api/webhooks/${endpoint.id}/rotate-secret`,
      token: other,
    });
    expect(rotate.statusCode).toBe(404);
    expect(await auditRows(t.db, { since })).toEqual([]);
  });

  it('Herald turning off an endpoint that answered 410 is its entry, with the reason', async () => {
    const { endpoint } = await makeEndpoint(t, token, rx.url('/gone'));
    rx.answer('/gone', 410);
    const since = await lastAuditId(t.db);
    const queued = await t.request({
      method: 'POST',
      url: `/api/webhooks/${endpoint.id}/test`,
      token,
    });
    expect(queued.statusCode, queued.body).toBe(202);
    await t.runDueJobs();
    const row = await onlyAuditRow(t.db, { since });
    expect(row).toMatchObject({
      action: 'webhook_endpoint.disable',
      actor_user_id: null,
      actor_label: 'Herald',
      target_id: endpoint.id,
      target_label: rx.url('/gone'),
      subject_user_id: user.id,
    });
    expect(row.changes).toEqual({
      enabled: { before: true, after: false },
      reason: { before: null, after: 'gone' },
    });
  });
});
