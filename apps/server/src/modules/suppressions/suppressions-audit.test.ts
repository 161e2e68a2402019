import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddSuppressionReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditRows, lastAuditId, onlyAuditRow } from '../audit/audit.test-fixtures.js';
import { makeKey } from '../api-keys/api-keys.test-fixtures.js';
import { multipart } from '../users/test-fixtures.js';
import { applyOptOutKeyword } from './suppressions.service.js';

/**
 * The suppression list's audit entries: the Suppressions screen's and the API's adds, removes
 * and imports; a person's own STOP or START reply writes none.
 */

let t: TestApp;
let admin: string;
let user: { id: string; email: string };
let token: string;
beforeAll(async () => {
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  admin = await t.adminToken();
  const u = await t.createUser(admin, { role: 'User' });
  user = u.user;
  token = u.token;
});
afterAll(() => t.close());

const add = (as: string, phone: unknown, url = '/api/suppressions') =>
  t.request({ method: 'POST', url, token: as, payload: { phone } });
const remove = (as: string, url: string) => t.request({ method: 'DELETE', url, token: as });

describe('suppressions in the audit log', () => {
  it("add and remove on the screen: one entry each, on the list's owner", async () => {
    let since = await lastAuditId(t.db);
    const res = await add(token, '919876543210');
    expect(res.statusCode, res.body).toBe(201);
    const entry = res.json<AddSuppressionReply>().suppression;
    const added = await onlyAuditRow(t.db, { since });
    expect(added).toMatchObject({
      action: 'suppression.add',
      actor_user_id: user.id,
      target_type: 'suppression',
      target_id: entry.id,
      target_label: entry.phone,
      subject_user_id: user.id,
      changes: { source: { before: null, after: 'manual' } },
    });
    // A second add of the number is refused: no entry.
    since = await lastAuditId(t.db);
    expect((await add(token, '919876543210')).statusCode).toBe(409);
    expect(await auditRows(t.db, { since })).toEqual([]);
    // The Admin removes it.
    expect((await remove(admin, `/api/suppressions/${entry.id}`)).statusCode).toBe(200);
    const removed = await onlyAuditRow(t.db, { since });
    expect(removed).toMatchObject({
      action: 'suppression.remove',
      actor_role: 'Admin',
      target_id: entry.id,
      subject_user_id: user.id,
      changes: { source: { before: 'manual', after: null } },
    });
    since = await lastAuditId(t.db);
    expect((await remove(admin, `/api/suppressions/${entry.id}`)).statusCode).toBe(404);
    expect(await auditRows(t.db, { since })).toEqual([]);
  });

  it('the public API add and remove name the API key', async () => {
    const key = await makeKey(t, token, 'Opt-outs');
    const since = await lastAuditId(t.db);
    const res = await add(key.secret, '919876500001', '/api/v1/suppressions');
    expect(res.statusCode, res.body).toBe(201);
    const phone = res.json<AddSuppressionReply>().suppression.phone;
    expect((await remove(key.secret, `/api/v1/suppressions/${phone}`)).statusCode).toBe(200);
    expect((await remove(key.secret, `/api/v1/suppressions/${phone}`)).statusCode).toBe(404);
    const rows = await auditRows(t.db, { since });
    expect(rows.map((r) => [r.action, r.actor_api_key_id, r.target_label])).toEqual([
      ['suppression.add', key.key.id, phone],
      ['suppression.remove', key.key.id, phone],
    ]);
  });

  it('an import is one entry with how many numbers it added; one adding none writes none', async () => {
    const importCsv = (text: string) =>
      t.request({
        method: 'POST',
        url: '/api/suppressions/import',
        token,
        ...multipart(
          {},
          { field: 'file', filename: 'n.csv', type: 'text/csv', data: Buffer.from(text) },
        ),
      });
    let since = await lastAuditId(t.db);
    const res = await importCsv('9111111111\n9111111112\n9111111113\n');
    expect(res.statusCode, res.body).toBe(200);
    const row = await onlyAuditRow(t.db, { since });
    expect(row).toMatchObject({
      action: 'suppression.add',
      target_id: null,
      subject_user_id: user.id,
      changes: { source: { before: null, after: 'import' }, added: { before: null, after: 3 } },
    });
    since = await lastAuditId(t.db);
    expect((await importCsv('9111111111\n')).statusCode).toBe(200);
    expect(await auditRows(t.db, { since })).toEqual([]);
  });

  it("a person's STOP or START reply writes none", async () => {
    const since = await lastAuditId(t.db);
    await t.db.transaction().execute(async (tx) => {
      await applyOptOutKeyword(tx, user.id, '919800000001', 'stop');
      await applyOptOutKeyword(tx, user.id, '919800000001', 'start');
    });
    expect(await auditRows(t.db, { since })).toEqual([]);
  });
});
