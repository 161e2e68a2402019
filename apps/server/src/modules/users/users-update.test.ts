import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type UpdateUserReply, type User, type UserPage } from '@herald/contract';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, formOf, multipart, type Hierarchy, type Member } from './test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

/** Edit User as the web form sends it (multipart), starting from the user as it stands. */
async function edit(token: string | undefined, target: Member | User, changes = {}) {
  const user = 'user' in target ? target.user : target;
  return put(token, user.id, { ...formOf(await current(user.id)), ...changes });
}

function put(token: string | undefined, id: string, fields: Record<string, string>) {
  return t.request({ method: 'PUT', url: `/api/users/update/${id}`, token, ...multipart(fields) });
}

async function current(id: string): Promise<User> {
  const res = await t.request({ method: 'GET', url: `/api/users/profile/${id}`, token: h.admin });
  return res.json<{ user: User }>().user;
}

function expectError(
  res: { statusCode: number; json: () => unknown },
  status: number,
  message: string,
) {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toEqual({ message });
}

describe('PUT /api/users/update/:id', () => {
  it('lets an Admin edit every field of a user, by multipart or JSON', async () => {
    const res = await edit(h.admin, h.r1, {
      name: 'R1 Renamed',
      ownNumber: '+91 90000 00001',
      companyName: 'Acme',
      contactPerson: 'Ravi',
      state: 'Maharashtra',
      city: 'Pune',
    });
    expect(res.statusCode).toBe(200);
    const reply = res.json<UpdateUserReply>();
    expect(reply.message).toBe(msg.userUpdated);
    expect(reply.user).toMatchObject({
      name: 'R1 Renamed',
      ownNumber: '+919000000001',
      companyName: 'Acme',
      contactPerson: 'Ravi',
      city: 'Pune',
      createdBy: ADMIN_EMAIL,
    });

    const json = await t.request({
      method: 'PUT',
      url: `/api/users/update/${h.r1.user.id}`,
      token: h.admin,
      payload: { name: 'R1', email: h.r1.user.email, contactPerson: '' },
    });
    expect(json.statusCode).toBe(200);
    // Sent empty clears the field; left out keeps it.
    expect(json.json<UpdateUserReply>().user).toMatchObject({
      name: 'R1',
      contactPerson: null,
      companyName: 'Acme',
      city: 'Pune',
    });
  });

  it('lets a Reseller edit contact fields and status anywhere in its subtree', async () => {
    const res = await edit(h.r1.token, h.u1, { name: 'U1 by R1', mobile: '9876543210' });
    expect(res.statusCode).toBe(200);
    expect(res.json<UpdateUserReply>().user).toMatchObject({
      name: 'U1 by R1',
      mobile: '9876543210',
    });
    // The form sends role and own number unchanged: that is fine.
    expect((await edit(h.s1.token, h.u1, { name: 'U1', ownNumber: '' })).statusCode).toBe(200);
  });

  it('refuses a Reseller any change of role, own number or whitelabel fields', async () => {
    expectError(
      await edit(h.r1.token, h.u2, { role: 'Sub-Reseller' }),
      403,
      msg.fieldNotAllowed('role'),
    );
    expectError(
      await edit(h.r1.token, h.u2, { ownNumber: '9999999' }),
      403,
      msg.fieldNotAllowed('own number'),
    );
    expectError(
      await edit(h.r1.token, h.s1, { companyName: 'Mine' }),
      403,
      msg.fieldNotAllowed('company name'),
    );
  });

  it('answers 404 for a user out of scope, above the caller, unknown or malformed', async () => {
    const cases: [string, Member | User][] = [
      [h.r1.token, h.u3],
      [h.r2.token, h.u1],
      [h.s1.token, h.r1],
      [h.s1.token, h.u2],
    ];
    for (const [token, target] of cases)
      expectError(await edit(token, target), 404, msg.userNotFound);
    const admin = (
      await t.request({ method: 'GET', url: '/api/users', token: h.admin })
    ).json<UserPage>().users;
    expect(admin.some((u) => u.role === 'Admin')).toBe(false);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await t.request({
        method: 'PUT',
        url: `/api/users/update/${id}`,
        token: h.admin,
        payload: { name: 'X', email: 'x@test.local' },
      });
      expectError(res, 404, msg.userNotFound);
    }
  });

  it('answers 403 to a User and 401 without a token', async () => {
    expectError(await edit(h.u1.token, h.u1), 403, msg.forbidden);
    expectError(await edit(undefined, h.u1), 401, msg.notLoggedIn);
  });

  it('answers 400 with the exact message', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ name: '' }, 'Name is required.'],
      [{ email: 'bad' }, 'Enter a valid email address.'],
      [{ status: 'Gone' }, 'Choose a status.'],
      [{ state: 'Karnataka', city: 'Pune' }, 'Choose a city from the selected state.'],
      [{ city: 'Agra' }, msg.cityNotInState],
      [{ companyName: 'Co' }, msg.whitelabelOnlyBranded],
    ];
    for (const [changes, message] of cases)
      expectError(await edit(h.admin, h.u3, changes), 400, message);
  });

  it('lets nobody change their own status or role, but their own name', async () => {
    expectError(await edit(h.r1.token, h.r1, { status: 'Blocked' }), 403, msg.cannotChangeSelf);
    expectError(await edit(h.s1.token, h.s1, { role: 'User' }), 403, msg.cannotChangeSelf);
    expect((await edit(h.r1.token, h.r1, { name: 'Me' })).statusCode).toBe(200);
    const me = await current(await adminId());
    expectError(await edit(h.admin, me, { role: 'Reseller' }), 403, msg.cannotChangeSelf);
    expectError(await edit(h.admin, me, { status: 'Blocked' }), 403, msg.cannotChangeSelf);
    expect((await edit(h.r1.token, h.r1, { name: 'R1' })).statusCode).toBe(200);
  });

  it('keeps the hierarchy valid on a role change', async () => {
    // U2's creator R1 may hold a Sub-Reseller; U1's creator S1 may not.
    expect((await edit(h.admin, h.u2, { role: 'Sub-Reseller' })).statusCode).toBe(200);
    expectError(await edit(h.admin, h.u1, { role: 'Sub-Reseller' }), 400, msg.roleParentMismatch);
    // S1 holds U1: a User holds nobody. R1 holds S1: a Sub-Reseller cannot hold a Sub-Reseller.
    expectError(await edit(h.admin, h.s1, { role: 'User' }), 409, msg.roleHasSubtree);
    expectError(await edit(h.admin, h.r1, { role: 'Sub-Reseller' }), 409, msg.roleHasSubtree);
    expectError(await edit(h.admin, h.u3, { role: 'Admin' }), 403, msg.roleNotAllowed);
    // Back to User: whitelabel fields go with the role.
    await edit(h.admin, h.u2, { companyName: 'Shortlived' });
    const back = await edit(h.admin, h.u2, { role: 'User' });
    expect(back.json<UpdateUserReply>().user).toMatchObject({ role: 'User', companyName: null });
  });

  it('changes the email only to a free one, whatever its case', async () => {
    expectError(
      await edit(h.admin, h.u3, { email: h.u2.user.email.toUpperCase() }),
      409,
      msg.emailTaken,
    );
    const res = await edit(h.admin, h.u3, { email: 'U3.New@Test.Local' });
    expect(res.json<UpdateUserReply>().user.email).toBe('u3.new@test.local');
    expect(await t.login('u3.new@test.local', h.u3.password)).toBeTruthy();
  });

  it("ends a blocked user's tokens at once, for good", async () => {
    const target = await t.createUser(h.r2.token, { role: 'User' });
    const dash = () => t.request({ method: 'GET', url: '/api/dashboard', token: target.token });
    expect((await dash()).statusCode).toBe(200);
    expect((await edit(h.r2.token, target, { status: 'Blocked' })).statusCode).toBe(200);
    expectError(await dash(), 401, msg.sessionEnded);
    const login = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: target.user.email, password: target.password },
    });
    // Answered like a wrong password, so the answer never confirms the password.
    expectError(login, 401, msg.invalidCredentials);
    expect((await edit(h.r2.token, target, { status: 'Active' })).statusCode).toBe(200);
    expect((await dash()).statusCode).toBe(401);
    expect(await t.login(target.user.email, target.password)).toBeTruthy();
  });

  it('never leaves the platform without an active Admin, even when two Admins race', async () => {
    const second = await insertAdmin('second-admin@test.local');
    const token2 = await t.login('second-admin@test.local', 'admin2-password');
    const first = await current(await adminId());
    const results = await Promise.all([
      put(h.admin, second.id, { ...formOf(second), status: 'Blocked' }),
      put(token2, first.id, { ...formOf(first), status: 'Blocked' }),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes[0]).toBe(200);
    expect([401, 409]).toContain(codes[1]);
    const active = await t.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'Admin')
      .where('status', '=', 'Active')
      .execute();
    expect(active).toHaveLength(1);
  });
});

async function adminId(): Promise<string> {
  const row = await t.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', ADMIN_EMAIL)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Only the first Admin exists through the API; a second one is inserted as an operator would. */
async function insertAdmin(email: string): Promise<User> {
  await t.db
    .insertInto('users')
    .values({
      email,
      name: 'Second Admin',
      role: 'Admin',
      password_hash: await t.app.ctx.hasher.hash('admin2-password'),
      created_by: await adminId(),
      ancestors: [await adminId()],
    })
    .execute();
  const row = await t.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return current(row.id);
}
