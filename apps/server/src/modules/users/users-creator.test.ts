import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile, User, UserPage } from '@herald/contract';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from './test-fixtures.js';

/**
 * No information leak: a user's creator (email and name) is shown only to a viewer whose
 * scope holds that creator (itself, its subtree; Admin everyone). A User viewing its own profile
 * used to read its Reseller's email; a Sub-Reseller the Reseller above it.
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

async function profileOf(token: string, id: string) {
  const res = await t.request({ method: 'GET', url: `/api/users/profile/${id}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return { body: res.body, user: res.json<Profile>().user };
}

async function listed(token: string, id: string): Promise<User | undefined> {
  const res = await t.request({ method: 'GET', url: '/api/users?limit=200', token });
  return res.json<UserPage>().users.find((u) => u.id === id);
}

describe('creator shown only within the viewer’s scope', () => {
  it('hides the creator above the viewer on its own profile', async () => {
    const cases = [
      { me: h.u1, creator: h.s1.user }, // a User and its Sub-Reseller
      { me: h.u2, creator: h.r1.user }, // a User and its Reseller
      { me: h.s1, creator: h.r1.user }, // a Sub-Reseller and the Reseller above it
    ];
    for (const { me, creator } of cases) {
      const { body, user } = await profileOf(me.token, me.user.id);
      expect(user).toMatchObject({ id: me.user.id, createdBy: null, createdByName: null });
      expect(body).not.toContain(creator.email);
      expect(body).not.toContain(`"${creator.name}"`);
    }
    const r1 = await profileOf(h.r1.token, h.r1.user.id);
    expect(r1.user.createdBy).toBeNull();
    expect(r1.body).not.toContain(ADMIN_EMAIL);
  });

  it('names a creator that is the viewer or in its subtree', async () => {
    expect((await profileOf(h.s1.token, h.u1.user.id)).user).toMatchObject({
      createdBy: h.s1.user.email,
      createdByName: 'S1',
    });
    expect((await profileOf(h.r1.token, h.u1.user.id)).user.createdBy).toBe(h.s1.user.email);
    expect((await profileOf(h.r1.token, h.s1.user.id)).user.createdBy).toBe(h.r1.user.email);
  });

  it('names every creator to an Admin', async () => {
    expect((await profileOf(h.admin, h.u1.user.id)).user.createdBy).toBe(h.s1.user.email);
    expect((await profileOf(h.admin, h.r1.user.id)).user).toMatchObject({
      createdBy: ADMIN_EMAIL,
      createdByName: 'Administrator',
    });
  });

  it('applies the same rule to the users list’s Created By', async () => {
    expect((await listed(h.r1.token, h.u1.user.id))?.createdBy).toBe(h.s1.user.email);
    expect((await listed(h.s1.token, h.u1.user.id))?.createdBy).toBe(h.s1.user.email);
    expect((await listed(h.admin, h.r2.user.id))?.createdBy).toBe(ADMIN_EMAIL);
    const s1 = await t.request({ method: 'GET', url: '/api/users', token: h.s1.token });
    expect(s1.body).not.toContain(h.r1.user.email);
  });

  it('names the creator in an edit reply when the editor’s scope holds it', async () => {
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/update/${h.u1.user.id}`,
      token: h.s1.token,
      payload: { name: 'U1', email: h.u1.user.email },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ user: User }>().user.createdBy).toBe(h.s1.user.email);
  });
});
