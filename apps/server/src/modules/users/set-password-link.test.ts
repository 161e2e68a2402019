import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from './test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://app.example.test/' });
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const send = (token: string, id: string) =>
  t.request({ method: 'POST', url: `/api/users/${id}/set-password-link`, token });

const setPassword = (token: string, password: string) =>
  t.request({
    method: 'POST',
    url: '/api/set-password',
    payload: { token, newPassword: password, confirmPassword: password },
  });

function lastToken(email: string): string {
  const mail = [...t.mails].reverse().find((m) => m.to === email);
  const token = /set-password#([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no link mailed to ${email}`);
  return token;
}

describe('Send password link', () => {
  it('a manager above the user mails a new link that works once and ends the old ones', async () => {
    const { email, id } = h.u1.user;
    const first = lastToken(email);
    // The first link expired.
    await t.db
      .updateTable('password_setup_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('user_id', '=', id)
      .execute();
    const res = await send(h.s1.token, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: msg.setPasswordLinkSent(email) });
    const second = lastToken(email);
    expect(second).not.toBe(first);
    const mail = [...t.mails].reverse().find((m) => m.to === email);
    expect(mail?.text).toContain('S1 sent you a new link');

    // A third link ends the second: only the newest works.
    expect((await send(h.r1.token, id)).statusCode).toBe(200);
    const third = lastToken(email);
    expect((await setPassword(second, 'second-link-pass-1')).statusCode).toBe(400);
    expect((await setPassword(first, 'first-link-pass-1')).statusCode).toBe(400);
    expect((await setPassword(third, 'third-link-pass-1')).statusCode).toBe(200);
    expect((await setPassword(third, 'third-link-pass-2')).statusCode).toBe(400);
    const login = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email, password: 'third-link-pass-1' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('is for managers, only for users below them, and only for active users', async () => {
    const mailsBefore = t.mails.length;
    const other = await send(h.r2.token, h.u1.user.id);
    expect([other.statusCode, other.json()]).toEqual([404, { message: msg.userNotFound }]);
    const self = await send(h.r1.token, h.r1.user.id);
    expect(self.statusCode).toBe(404);
    const user = await send(h.u2.token, h.u2.user.id);
    expect(user.statusCode).toBe(403);
    const unknown = await send(h.admin, 'not-a-uuid');
    expect(unknown.statusCode).toBe(404);

    await t.db
      .updateTable('users')
      .set({ status: 'Blocked' })
      .where('id', '=', h.u3.user.id)
      .execute();
    const blocked = await send(h.admin, h.u3.user.id);
    expect([blocked.statusCode, blocked.json()]).toEqual([
      409,
      { message: msg.setPasswordLinkInactive },
    ]);
    expect(t.mails.length).toBe(mailsBefore);
  });
});
