import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEYS_PER_USER } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditRows, lastAuditId, onlyAuditRow } from '../audit/audit.test-fixtures.js';
import { makeKey, postKey, revokeKey } from './api-keys.test-fixtures.js';

/** API keys' audit entries: the key's name and kind, never its value. */

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

describe('API keys in the audit log', () => {
  it('create: one entry on the owner with name and kind, not the key', async () => {
    const since = await lastAuditId(t.db);
    const made = await makeKey(t, token, 'Nightly', 'test');
    const row = await onlyAuditRow(t.db, { since });
    expect(row).toMatchObject({
      action: 'api_key.create',
      actor_user_id: user.id,
      target_type: 'api_key',
      target_id: made.key.id,
      target_label: 'Nightly',
      subject_user_id: user.id,
    });
    expect(row.changes).toEqual({
      name: { before: null, after: 'Nightly' },
      kind: { before: null, after: 'test' },
    });
    expect(JSON.stringify(row)).not.toContain(made.secret);
  });

  it("revoke by the owner and by the Admin: one entry each, on the key's owner", async () => {
    const a = await makeKey(t, token, 'A');
    const b = await makeKey(t, token, 'B');
    const since = await lastAuditId(t.db);
    expect((await revokeKey(t, token, a.key.id)).statusCode).toBe(200);
    expect((await revokeKey(t, admin, b.key.id)).statusCode).toBe(200);
    const rows = await auditRows(t.db, { since });
    expect(rows.map((r) => [r.action, r.actor_role, r.target_id, r.subject_user_id])).toEqual([
      ['api_key.revoke', 'User', a.key.id, user.id],
      ['api_key.revoke', 'Admin', b.key.id, user.id],
    ]);
  });

  it('a refused create or revoke writes none', async () => {
    const other = await t.createUser(admin, { role: 'User' });
    const key = await makeKey(t, token, 'Mine');
    const since = await lastAuditId(t.db);
    expect((await revokeKey(t, other.token, key.key.id)).statusCode).toBe(404);
    expect((await postKey(t, token, { name: '', kind: 'live' })).statusCode).toBe(400);
    expect((await revokeKey(t, token, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(
      404,
    );
    expect(await auditRows(t.db, { since })).toEqual([]);
    // Past the limit: 409, no entry.
    for (let i = 0; i < API_KEYS_PER_USER; i++)
      await postKey(t, other.token, { name: `k${i}`, kind: 'live' });
    const before = await lastAuditId(t.db);
    expect((await postKey(t, other.token, { name: 'one more', kind: 'live' })).statusCode).toBe(
      409,
    );
    expect(await auditRows(t.db, { since: before })).toEqual([]);
  });
});
