import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateUserReply, User } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import {
  lastAuditId,
  auditSince,
  expectNoEntrySince,
  onlyEntrySince,
  adminUserId,
} from '../audit/audit.test-fixtures.js';
import { formOf, multipart } from './test-fixtures.js';

/**
 * The audit entries of Add User and Edit User (docs/audit.md): a role change, a block or
 * unblock and an edit of other fields are each their own entry.
 */

let t: TestApp;
let admin: string;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  adminId = await adminUserId(t.db);
});
afterAll(() => t.close());

async function current(id: string): Promise<User> {
  const res = await t.request({ method: 'GET', url: `/api/users/profile/${id}`, token: admin });
  return res.json<{ user: User }>().user;
}

async function edit(token: string, id: string, changes: Record<string, string>) {
  const fields = { ...formOf(await current(id)), ...changes };
  return t.request({ method: 'PUT', url: `/api/users/update/${id}`, token, ...multipart(fields) });
}

describe('Add User', () => {
  it('writes user.create by the creator, with the new fields and no password', async () => {
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const mark = await lastAuditId(t.db);
    const res = await t.request({
      method: 'POST',
      url: '/api/users',
      token: reseller.token,
      payload: {
        name: 'Audit New',
        email: 'audit-new@test.local',
        role: 'User',
        password: 'new-user-password-1',
        city: '',
        firmName: 'Firm Ltd',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { user } = res.json<CreateUserReply>();
    const row = await onlyEntrySince(t.db, mark, 'user.create');
    expect(row).toMatchObject({
      actor_user_id: reseller.user.id,
      actor_role: 'Reseller',
      target_type: 'user',
      target_id: user.id,
      target_label: 'audit-new@test.local',
      subject_user_id: user.id,
    });
    expect(row.changes).toMatchObject({
      email: { before: null, after: 'audit-new@test.local' },
      name: { before: null, after: 'Audit New' },
      role: { before: null, after: 'User' },
      firm_name: { before: null, after: 'Firm Ltd' },
    });
    expect(JSON.stringify(row.changes)).not.toContain('new-user-password-1');
    // The reseller's own subtree sees it: the new user hangs under the reseller.
    expect(row.scope).toEqual(expect.arrayContaining([adminId, reseller.user.id, user.id]));
  });

  it('a refused creation writes none', async () => {
    const { token } = await t.createUser(admin, { role: 'User' });
    const taken = await t.createUser(admin, { role: 'User' });
    const mark = await lastAuditId(t.db);
    const payload = { name: 'X', email: 'audit-refused@test.local', role: 'Admin', password: '' };
    expect(
      (await t.request({ method: 'POST', url: '/api/users', token, payload })).statusCode,
    ).toBe(403);
    const duplicate = { ...payload, role: 'User', email: taken.user.email };
    expect(
      (await t.request({ method: 'POST', url: '/api/users', token: admin, payload: duplicate }))
        .statusCode,
    ).toBe(409);
    await expectNoEntrySince(t.db, mark);
  });
});

describe('Edit User', () => {
  it('an edit of other fields writes user.update with the changed fields only', async () => {
    const { user } = await t.createUser(admin, { role: 'User' });
    const mark = await lastAuditId(t.db);
    const res = await edit(admin, user.id, { name: 'Renamed', mobile: '9876543210' });
    expect(res.statusCode, res.body).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'user.update');
    expect(row).toMatchObject({
      actor_user_id: adminId,
      target_id: user.id,
      target_label: user.email,
      subject_user_id: user.id,
    });
    expect(row.changes).toEqual({
      name: { before: user.name, after: 'Renamed' },
      mobile: { before: null, after: expect.any(String) },
    });
  });

  it('a block writes user.block, an unblock user.unblock, each with the status only', async () => {
    const { user } = await t.createUser(admin, { role: 'User' });
    let mark = await lastAuditId(t.db);
    expect((await edit(admin, user.id, { status: 'Blocked' })).statusCode).toBe(200);
    let row = await onlyEntrySince(t.db, mark, 'user.block');
    expect(row.changes).toEqual({ status: { before: 'Active', after: 'Blocked' } });
    expect(row.target_id).toBe(user.id);
    mark = await lastAuditId(t.db);
    expect((await edit(admin, user.id, { status: 'Active' })).statusCode).toBe(200);
    row = await onlyEntrySince(t.db, mark, 'user.unblock');
    expect(row.changes).toEqual({ status: { before: 'Blocked', after: 'Active' } });
  });

  it('a role change with a rename writes user.role_change and user.update', async () => {
    const { user } = await t.createUser(admin, { role: 'User' });
    const mark = await lastAuditId(t.db);
    const res = await edit(admin, user.id, { role: 'Reseller', name: 'Now Reseller' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await auditSince(t.db, mark);
    expect(rows.map((r) => r.action)).toEqual(['user.role_change', 'user.update']);
    expect(rows[0]!.changes).toEqual({ role: { before: 'User', after: 'Reseller' } });
    expect(rows[1]!.changes).toEqual({ name: { before: user.name, after: 'Now Reseller' } });
  });

  it('an edit that changes nothing, or is refused, writes none', async () => {
    const { user, token } = await t.createUser(admin, { role: 'User' });
    const mark = await lastAuditId(t.db);
    expect((await edit(admin, user.id, {})).statusCode).toBe(200);
    // Nobody changes their own status.
    expect((await edit(token, user.id, { status: 'Blocked' })).statusCode).toBe(403);
    // The last active Admin stays.
    expect((await edit(admin, adminId, { name: 'Still Admin', role: 'Reseller' })).statusCode).toBe(
      403,
    );
    await expectNoEntrySince(t.db, mark);
  });
});
