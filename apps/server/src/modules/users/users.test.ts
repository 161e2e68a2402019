import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  server as msg,
  type CreateUserReply,
  type Profile,
  type Role,
  type UserPage,
} from '@herald/contract';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from './test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

let n = 0;
function newEmail(prefix = 'new'): string {
  n++;
  return `${prefix}-${n}@test.local`;
}

function create(token: string | undefined, payload: Record<string, unknown>) {
  return t.request({ method: 'POST', url: '/api/users', token, payload });
}

describe('GET /api/users', () => {
  const names = async (token: string) => {
    const res = await t.request({ method: 'GET', url: '/api/users', token });
    expect(res.statusCode).toBe(200);
    return res.json<UserPage>().users.map((u) => u.name);
  };

  it("lists the caller's scope without the caller, newest first", async () => {
    expect(await names(h.r1.token)).toEqual(['U2', 'U1', 'S1']);
    expect(await names(h.s1.token)).toEqual(['U1']);
    expect(await names(h.r2.token)).toEqual(['U3']);
    const all = await names(h.admin);
    expect(all.slice(0, 6)).toEqual(['U3', 'R2', 'U2', 'U1', 'S1', 'R1']);
    expect(all).not.toContain('Administrator');
  });

  it('presents each user with id and _id, the creator and no secrets', async () => {
    const res = await t.request({ method: 'GET', url: '/api/users', token: h.r1.token });
    const u1 = res.json<UserPage>().users.find((u) => u.name === 'U1')!;
    expect(u1).toMatchObject({
      id: h.u1.user.id,
      _id: h.u1.user.id,
      role: 'User',
      status: 'Active',
      createdBy: h.s1.user.email,
      createdByName: 'S1',
    });
    expect(new Date(u1.createdAt).toISOString()).toBe(u1.createdAt);
    expect(res.body).not.toMatch(/password|token_version|ancestors/i);
    const r1 = (
      await t.request({ method: 'GET', url: '/api/users', token: h.admin })
    ).json<UserPage>().users;
    expect(r1.find((u) => u.name === 'R1')?.createdBy).toBe(ADMIN_EMAIL);
  });

  it('answers 403 to a User and 401 without a token', async () => {
    const res = await t.request({ method: 'GET', url: '/api/users', token: h.u1.token });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: msg.forbidden });
    const anon = await t.request({ method: 'GET', url: '/api/users' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ message: msg.notLoggedIn });
  });
});

describe('POST /api/users', () => {
  const allowed: [string, () => string, Role[], Role[]][] = [
    ['Admin', () => h.admin, ['Reseller', 'Sub-Reseller', 'User'], ['Admin']],
    ['Reseller', () => h.r1.token, ['Sub-Reseller', 'User'], ['Admin', 'Reseller']],
    ['Sub-Reseller', () => h.s1.token, ['User'], ['Admin', 'Reseller', 'Sub-Reseller']],
  ];
  it.each(allowed)('lets a %s create only the roles below it', async (_, token, ok, refused) => {
    for (const role of ok) {
      const res = await create(token(), { name: `New ${role}`, email: newEmail(), role });
      expect(res.statusCode, role).toBe(201);
      expect(res.json<CreateUserReply>().user.role).toBe(role);
    }
    for (const role of refused) {
      const res = await create(token(), { name: 'No', email: newEmail(), role });
      expect(res.statusCode, role).toBe(403);
      expect(res.json()).toEqual({ message: msg.roleNotAllowed });
    }
  });

  it('answers 403 to a User and 401 without a token', async () => {
    const body = { name: 'X', email: newEmail(), role: 'User' };
    const res = await create(h.u1.token, body);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: msg.forbidden });
    expect((await create(undefined, body)).statusCode).toBe(401);
  });

  it('hangs the new user under its creator, visible up the chain', async () => {
    const res = await create(h.s1.token, {
      name: 'Deep',
      email: newEmail(),
      password: 'deep-password-1',
      role: 'User',
      mobile: '+91 98765-43210',
      state: 'Karnataka',
      city: 'Mysuru',
      pincode: '570001',
      firmName: '  Deep Firm  ',
    });
    expect(res.statusCode).toBe(201);
    const reply = res.json<CreateUserReply>();
    expect(reply.message).toBe(msg.userCreated);
    expect(reply.generatedPassword).toBeUndefined();
    expect(reply.user).toMatchObject({
      createdBy: h.s1.user.email,
      createdByName: 'S1',
      mobile: '+919876543210',
      state: 'Karnataka',
      city: 'Mysuru',
      pincode: '570001',
      firmName: 'Deep Firm',
      ownNumber: null,
    });
    const seenBy = async (token: string) => {
      const list = await t.request({ method: 'GET', url: '/api/users', token });
      return list.json<UserPage>().users.some((u) => u.id === reply.user.id);
    };
    expect(await seenBy(h.r1.token)).toBe(true);
    expect(await seenBy(h.admin)).toBe(true);
    expect(await seenBy(h.r2.token)).toBe(false);
    const mail = t.mails.at(-1)!;
    expect(mail).toMatchObject({ to: reply.user.email, subject: 'Your Herald account' });
    expect(mail.text).toContain('/set-password#');
    expect(mail.text).not.toContain('deep-password-1');
  });

  it('generates a password when none is given and shows it once, never in the mail', async () => {
    const email = newEmail('gen');
    const res = await create(h.r1.token, { name: 'Gen', email, password: '', role: 'User' });
    expect(res.statusCode).toBe(201);
    const reply = res.json<CreateUserReply>();
    const pw = reply.generatedPassword!;
    expect(pw).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(reply.message).toBe(msg.userCreatedWithPassword(pw));
    expect(t.mails.at(-1)).toMatchObject({ to: email });
    expect(t.mails.at(-1)!.text).toContain('/set-password#');
    expect(t.mails.at(-1)!.text).not.toContain(pw);
    expect(await t.login(email, pw)).toBeTruthy();
  });

  it('refuses a duplicate email whatever its case, also under a race', async () => {
    const dup = await create(h.admin, {
      name: 'Dup',
      email: h.u1.user.email.toUpperCase(),
      role: 'User',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ message: msg.emailTaken });

    const email = newEmail('race');
    const results = await Promise.all(
      [0, 1, 2].map(() => create(h.admin, { name: 'Race', email, role: 'User' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it('answers 400 with the exact message', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ email: newEmail(), role: 'User' }, 'Name is required.'],
      [{ name: '  ', email: newEmail(), role: 'User' }, 'Name is required.'],
      [{ name: 'A', email: 'not-an-email', role: 'User' }, 'Enter a valid email address.'],
      [{ name: 'A', email: newEmail(), role: 'Boss' }, 'Choose a role.'],
      [
        { name: 'A', email: newEmail(), role: 'User', password: 'short' },
        'Password must be at least 8 characters.',
      ],
      [
        { name: 'A', email: newEmail(), role: 'User', state: 'Karnataka', city: 'Mumbai' },
        'Choose a city from the selected state.',
      ],
      [{ name: 'A', email: newEmail(), role: 'User', pincode: '12' }, 'Pincode is 6 digits.'],
    ];
    for (const [payload, message] of cases) {
      const res = await create(h.admin, payload);
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toEqual({ message });
    }
  });
});

describe('GET /api/users/profile/:id', () => {
  const profile = (token: string | undefined, id: string) =>
    t.request({ method: 'GET', url: `/api/users/profile/${id}`, token });

  it('shows every role its own profile, with empty balances and campaigns for now', async () => {
    for (const m of [h.u1, h.s1, h.r1]) {
      const res = await profile(m.token, m.user.id);
      expect(res.statusCode).toBe(200);
      // Its creator sits above it, outside its scope: not named (users-creator.test.ts).
      const user = { ...m.user, createdBy: null, createdByName: null };
      expect(res.json<Profile>()).toEqual({ user, balances: [], recentCampaigns: [] });
    }
  });

  it('shows users in scope: the subtree, anyone to an Admin', async () => {
    expect((await profile(h.r1.token, h.u1.user.id)).statusCode).toBe(200);
    expect((await profile(h.s1.token, h.u1.user.id)).statusCode).toBe(200);
    expect((await profile(h.admin, h.u3.user.id)).json<Profile>().user.name).toBe('U3');
  });

  it('answers 404 out of scope, for an unknown id and for a malformed one', async () => {
    const cases: [string, string][] = [
      [h.r1.token, h.u3.user.id],
      [h.r2.token, h.u1.user.id],
      [h.s1.token, h.r1.user.id],
      [h.s1.token, h.u2.user.id],
      [h.u1.token, h.u2.user.id],
      [h.u1.token, h.s1.user.id],
      [h.admin, '00000000-0000-4000-8000-000000000000'],
      [h.admin, 'not-a-uuid'],
    ];
    for (const [token, id] of cases) {
      const res = await profile(token, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ message: msg.userNotFound });
    }
  });

  it('answers 401 without a token', async () => {
    expect((await profile(undefined, h.u1.user.id)).statusCode).toBe(401);
  });
});
