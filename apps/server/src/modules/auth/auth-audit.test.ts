import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS, type CreateUserReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { lastAuditId, expectNoEntrySince, onlyEntrySince } from '../audit/audit.test-fixtures.js';
import { multipart, formOf } from '../users/test-fixtures.js';

/** The audit entries of sign-ins and password changes (docs/audit.md). */

let t: TestApp;
let admin: string;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://app.example.test/' });
  admin = await t.adminToken();
  const row = await t.db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'Admin')
    .executeTakeFirstOrThrow();
  adminId = row.id;
});
afterAll(() => t.close());

const login = (email: string, password: string, ip = '10.60.0.1') =>
  t.request({
    method: 'POST',
    url: '/api/login',
    payload: { email, password },
    remoteAddress: ip,
    headers: { 'user-agent': 'audit-test' },
  });

const newUser = () => t.createUser(admin, { role: 'User' });

describe('sign-in entries', () => {
  it('a sign-in writes one auth.sign_in of the user, from its address', async () => {
    const { user, password } = await newUser();
    const mark = await lastAuditId(t.db);
    expect((await login(user.email, password, '10.60.1.1')).statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'auth.sign_in');
    expect(row).toMatchObject({
      actor_user_id: user.id,
      actor_label: user.email,
      actor_role: 'User',
      ip: '10.60.1.1',
      user_agent: 'audit-test',
      target_type: 'user',
      target_id: user.id,
      target_label: user.email,
      subject_user_id: user.id,
      changes: null,
    });
    expect([...row.scope].sort()).toEqual([adminId, user.id].sort());
  });

  it('a wrong password, an unknown email and a blocked account each write auth.sign_in_failed', async () => {
    const { user, password } = await newUser();
    let mark = await lastAuditId(t.db);
    expect((await login(user.email, 'not-the-password')).statusCode).toBe(401);
    let row = await onlyEntrySince(t.db, mark, 'auth.sign_in_failed');
    expect(row).toMatchObject({
      actor_user_id: user.id,
      actor_label: user.email,
      target_id: user.id,
      subject_user_id: user.id,
      changes: { reason: { before: null, after: 'wrong_password' } },
    });

    mark = await lastAuditId(t.db);
    expect((await login('nobody-here@test.local', 'whatever-1')).statusCode).toBe(401);
    row = await onlyEntrySince(t.db, mark, 'auth.sign_in_failed');
    expect(row).toMatchObject({
      actor_user_id: null,
      actor_label: 'nobody-here@test.local',
      actor_role: null,
      target_id: null,
      target_label: 'nobody-here@test.local',
      subject_user_id: null,
      changes: { reason: { before: null, after: 'unknown_email' } },
    });
    expect(row.scope).toEqual([]);

    const profile = await t.request({
      method: 'GET',
      url: `/api/users/profile/${user.id}`,
      token: admin,
    });
    const blocked = await t.request({
      method: 'PUT',
      url: `/api/users/update/${user.id}`,
      token: admin,
      ...multipart({ ...formOf(profile.json().user), status: 'Blocked' }),
    });
    expect(blocked.statusCode).toBe(200);
    mark = await lastAuditId(t.db);
    expect((await login(user.email, password)).statusCode).toBe(401);
    row = await onlyEntrySince(t.db, mark, 'auth.sign_in_failed');
    expect(row.changes).toEqual({ reason: { before: null, after: 'account_blocked' } });
  });

  it('a rate-limited attempt writes no entry and still answers 429', async () => {
    const { user, password } = await newUser();
    const { max } = RATE_LIMITS.loginFailuresPerAccountIp;
    const mark = await lastAuditId(t.db);
    for (let i = 0; i < max; i++) {
      expect((await login(user.email, `guess-${i}`, '10.60.2.1')).statusCode).toBe(401);
    }
    const failed = await lastAuditId(t.db);
    expect(Number(failed) - Number(mark)).toBe(max);
    expect((await login(user.email, password, '10.60.2.1')).statusCode).toBe(429);
    expect((await login(user.email, 'guess-more', '10.60.2.1')).statusCode).toBe(429);
    await expectNoEntrySince(t.db, failed);
  });

  it('an entry that cannot be written leaves a failed sign-in a 401, never a 500', async () => {
    const { user } = await newUser();
    // The owner makes every insert into the log fail for the length of the test.
    await sql`
      CREATE FUNCTION audit_test_refuse() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'audit test: refused'; END $$;
      CREATE TRIGGER audit_test_refuse BEFORE INSERT ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_test_refuse();
    `.execute(t.ownerDb);
    try {
      const mark = await lastAuditId(t.db);
      const res = await login(user.email, 'not-the-password', '10.60.3.1');
      expect(res.statusCode).toBe(401);
      await expectNoEntrySince(t.db, mark);
    } finally {
      await sql`
        DROP TRIGGER audit_test_refuse ON audit_log;
        DROP FUNCTION audit_test_refuse();
      `.execute(t.ownerDb);
    }
  });
});

describe('password entries', () => {
  it('Change Password writes password.change; a wrong current password writes none', async () => {
    const { user, token, password } = await newUser();
    const change = (currentPassword: string) =>
      t.request({
        method: 'PUT',
        url: '/api/users/change-password',
        token,
        payload: {
          currentPassword,
          newPassword: 'a-new-password-9',
          confirmPassword: 'a-new-password-9',
        },
      });
    let mark = await lastAuditId(t.db);
    expect((await change('wrong-current-1')).statusCode).toBe(400);
    await expectNoEntrySince(t.db, mark);
    mark = await lastAuditId(t.db);
    expect((await change(password)).statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'password.change');
    expect(row).toMatchObject({
      actor_user_id: user.id,
      target_type: 'user',
      target_id: user.id,
      subject_user_id: user.id,
      changes: null,
    });
  });

  it('a reset with the mailed code writes password.reset; a wrong code writes none', async () => {
    const { user } = await newUser();
    await t.request({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: user.email },
    });
    const mail = [...t.mails].reverse().find((m) => m.to === user.email);
    const otp = /password is (\d{6})/.exec(mail?.text ?? '')?.[1];
    if (!otp) throw new Error('no reset code mailed');
    const reset = (code: string) =>
      t.request({
        method: 'POST',
        url: '/api/reset-password',
        payload: { email: user.email, otp: code, newPassword: 'reset-password-7' },
        remoteAddress: '10.60.4.1',
      });
    let mark = await lastAuditId(t.db);
    expect((await reset(otp === '000000' ? '111111' : '000000')).statusCode).toBe(400);
    await expectNoEntrySince(t.db, mark);
    mark = await lastAuditId(t.db);
    expect((await reset(otp)).statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'password.reset');
    expect(row).toMatchObject({
      actor_user_id: user.id,
      actor_label: user.email,
      ip: '10.60.4.1',
      target_id: user.id,
      subject_user_id: user.id,
    });
  });

  it('a set-password link writes password.set; a spent link writes none', async () => {
    const email = 'audit-link@test.local';
    const created = await t.request({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { name: 'Audit Link', email, role: 'User', password: '' },
    });
    expect(created.statusCode).toBe(201);
    const userId = created.json<CreateUserReply>().user.id;
    const mail = [...t.mails].reverse().find((m) => m.to === email);
    const token = /set-password#([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    if (!token) throw new Error('no set-password link mailed');
    const set = () =>
      t.request({
        method: 'POST',
        url: '/api/set-password',
        payload: { token, newPassword: 'linked-password-3', confirmPassword: 'linked-password-3' },
      });
    let mark = await lastAuditId(t.db);
    expect((await set()).statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'password.set');
    expect(row).toMatchObject({
      actor_user_id: userId,
      actor_label: email,
      actor_role: 'User',
      target_id: userId,
      subject_user_id: userId,
    });
    mark = await lastAuditId(t.db);
    expect((await set()).statusCode).toBe(400);
    await expectNoEntrySince(t.db, mark);
  });

  it('an Admin reset writes password.admin_reset by the Admin; a refused one writes none', async () => {
    const { user } = await newUser();
    const reset = (id: string) =>
      t.request({
        method: 'PUT',
        url: `/api/users/admin-reset-password/${id}`,
        token: admin,
        payload: { newPassword: 'set-by-admin-4' },
      });
    let mark = await lastAuditId(t.db);
    expect((await reset(adminId)).statusCode).toBe(400);
    await expectNoEntrySince(t.db, mark);
    mark = await lastAuditId(t.db);
    expect((await reset(user.id)).statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'password.admin_reset');
    expect(row).toMatchObject({
      actor_user_id: adminId,
      actor_role: 'Admin',
      target_id: user.id,
      target_label: user.email,
      subject_user_id: user.id,
      changes: null,
    });
  });
});
