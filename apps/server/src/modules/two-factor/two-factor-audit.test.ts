import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginAnswer, TwoFactorSetupReply } from '@herald/contract';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../../../test/harness.js';
import {
  lastAuditId,
  expectNoEntrySince,
  onlyEntrySince,
  adminUserId,
} from '../audit/audit.test-fixtures.js';
import {
  awayFromStepEdge,
  challengeOf,
  codeIn,
  enrol,
  forgetLastStep,
  loginStep1,
  loginStep2,
} from './two-factor.test-fixtures.js';

/** The audit entries of two-factor sign-in and the security setting (docs/audit.md). */

let t: TestApp;
let admin: string;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  adminId = await adminUserId(t.db);
});
afterAll(() => t.close());

const ownTarget = (user: { id: string; email: string }) => ({
  actor_user_id: user.id,
  target_type: 'user',
  target_id: user.id,
  target_label: user.email,
  subject_user_id: user.id,
  changes: null,
});

describe('two-factor entries', () => {
  it('turning it on writes two_factor.enable; a wrong first code writes none', async () => {
    const { user, token } = await t.createUser(admin, { role: 'User' });
    const setup = await t.request({ method: 'POST', url: '/api/two-factor/setup', token });
    const { secret } = setup.json<TwoFactorSetupReply>();
    await awayFromStepEdge();
    const confirm = (code: string) =>
      t.request({ method: 'POST', url: '/api/two-factor/confirm', token, payload: { code } });
    let mark = await lastAuditId(t.db);
    expect((await confirm(codeIn(secret, 5))).statusCode).toBe(400);
    await expectNoEntrySince(t.db, mark);
    mark = await lastAuditId(t.db);
    expect((await confirm(codeIn(secret))).statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'two_factor.enable');
    expect(row).toMatchObject(ownTarget(user));
  });

  it('the sign-in completes with the code: one auth.sign_in then, a wrong code is a failure', async () => {
    const { user, token, password } = await t.createUser(admin, { role: 'User' });
    const { secret } = await enrol(t, token);
    let mark = await lastAuditId(t.db);
    const first = await loginStep1(t, user.email, password);
    expect('challenge' in first.json<LoginAnswer>()).toBe(true);
    await expectNoEntrySince(t.db, mark);

    const challenge = await challengeOf(t, user.email, password);
    mark = await lastAuditId(t.db);
    expect((await loginStep2(t, challenge, codeIn(secret, 5))).statusCode).toBe(400);
    let row = await onlyEntrySince(t.db, mark, 'auth.sign_in_failed');
    expect(row).toMatchObject({
      actor_user_id: user.id,
      actor_label: user.email,
      subject_user_id: user.id,
      changes: { reason: { before: null, after: 'wrong_code' } },
    });

    await forgetLastStep(t, user.id);
    await awayFromStepEdge();
    mark = await lastAuditId(t.db);
    expect((await loginStep2(t, challenge, codeIn(secret))).statusCode).toBe(200);
    row = await onlyEntrySince(t.db, mark, 'auth.sign_in');
    expect(row).toMatchObject({ actor_user_id: user.id, target_id: user.id });
  });

  it('new recovery codes write two_factor.recovery_codes; a wrong code writes none', async () => {
    const { user, token } = await t.createUser(admin, { role: 'User' });
    const { secret } = await enrol(t, token);
    const regenerate = (code: string) =>
      t.request({
        method: 'POST',
        url: '/api/two-factor/recovery-codes',
        token,
        payload: { code },
      });
    let mark = await lastAuditId(t.db);
    expect((await regenerate(codeIn(secret, 5))).statusCode).toBe(400);
    await expectNoEntrySince(t.db, mark);
    await awayFromStepEdge();
    mark = await lastAuditId(t.db);
    expect((await regenerate(codeIn(secret))).statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'two_factor.recovery_codes');
    expect(row).toMatchObject(ownTarget(user));
    expect(JSON.stringify(row)).not.toContain(codeIn(secret));
  });

  it('turning it off writes two_factor.disable; a wrong password writes none', async () => {
    const { user, token, password } = await t.createUser(admin, { role: 'User' });
    const { secret } = await enrol(t, token);
    const off = (body: { password: string; code: string }) =>
      t.request({ method: 'POST', url: '/api/two-factor/disable', token, payload: body });
    let mark = await lastAuditId(t.db);
    expect((await off({ password: 'not-it', code: codeIn(secret) })).statusCode).toBe(400);
    await expectNoEntrySince(t.db, mark);
    await awayFromStepEdge();
    mark = await lastAuditId(t.db);
    expect((await off({ password, code: codeIn(secret) })).statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'two_factor.disable');
    expect(row).toMatchObject(ownTarget(user));
  });

  it('an Admin reset writes two_factor.reset by the Admin; one of a user without it writes none', async () => {
    const { user, token } = await t.createUser(admin, { role: 'User' });
    const reset = () =>
      t.request({ method: 'DELETE', url: `/api/users/${user.id}/two-factor`, token: admin });
    let mark = await lastAuditId(t.db);
    expect((await reset()).statusCode).toBe(400);
    await expectNoEntrySince(t.db, mark);
    await enrol(t, token);
    mark = await lastAuditId(t.db);
    expect((await reset()).statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'two_factor.reset');
    expect(row).toMatchObject({
      actor_user_id: adminId,
      actor_role: 'Admin',
      target_id: user.id,
      target_label: user.email,
      subject_user_id: user.id,
    });
  });
});

describe('the security setting', () => {
  const setRequired = (token: string, requireTwoFactor: boolean) =>
    t.request({
      method: 'PUT',
      url: '/api/settings/security',
      token,
      payload: { requireTwoFactor },
    });

  it('writes security.update with the changed setting; a refused change writes none', async () => {
    let mark = await lastAuditId(t.db);
    // The Admin has no two-factor sign-in of its own yet: refused.
    expect((await setRequired(admin, true)).statusCode).toBe(400);
    await expectNoEntrySince(t.db, mark);

    const { secret } = await enrol(t, admin);
    await forgetLastStep(t, adminId);
    await awayFromStepEdge();
    const signIn = await loginStep2(
      t,
      await challengeOf(t, ADMIN_EMAIL, ADMIN_PASSWORD),
      codeIn(secret),
    );
    const session = signIn.json<{ token: string }>().token;
    mark = await lastAuditId(t.db);
    expect((await setRequired(session, true)).statusCode).toBe(200);
    const row = await onlyEntrySince(t.db, mark, 'security.update');
    expect(row).toMatchObject({
      actor_user_id: adminId,
      target_type: 'settings',
      target_id: null,
      subject_user_id: null,
      changes: { require_two_factor: { before: false, after: true } },
    });

    // The same value again changes nothing: no entry.
    mark = await lastAuditId(t.db);
    expect((await setRequired(session, true)).statusCode).toBe(200);
    await expectNoEntrySince(t.db, mark);
  });
});
