import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SET_PASSWORD_LINK_TTL_HOURS, server as msg, type CreateUserReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://app.example.test/' });
  admin = await t.adminToken();
});
afterAll(() => t.close());

let n = 0;
/** Adds a user through the API as the Admin; answers the reply and the mail it sent. */
async function addUser(password?: string) {
  n++;
  const email = `link-${n}@test.local`;
  const res = await t.request({
    method: 'POST',
    url: '/api/users',
    token: admin,
    payload: { name: `Link ${n}`, email, role: 'User', password: password ?? '' },
  });
  expect(res.statusCode, res.body).toBe(201);
  const mail = [...t.mails].reverse().find((m) => m.to === email)!;
  return { email, reply: res.json<CreateUserReply>(), mail };
}

function tokenOf(text: string): string {
  const token = /https:\/\/app\.example\.test\/set-password#([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error(`no set-password link in: ${text}`);
  return token;
}

const setPassword = (token: string, password: string, confirm = password) =>
  t.request({
    method: 'POST',
    url: '/api/set-password',
    payload: { token, newPassword: password, confirmPassword: confirm },
  });

const login = (email: string, password: string) =>
  t.request({ method: 'POST', url: '/api/login', payload: { email, password } });

describe("a new user's set-password link", () => {
  it('is mailed instead of any password, typed or generated', async () => {
    const typed = await addUser('typed-password-1');
    expect(typed.mail.text).not.toContain('typed-password-1');
    expect(typed.mail.text).toContain(`${SET_PASSWORD_LINK_TTL_HOURS} hours`);
    tokenOf(typed.mail.text);

    const generated = await addUser();
    const shown = generated.reply.generatedPassword!;
    expect(shown).toBeTruthy();
    expect(generated.mail.text).not.toContain(shown);
    expect(generated.mail.subject).not.toContain(shown);
    // The password shown once on screen still logs in.
    expect((await login(generated.email, shown)).statusCode).toBe(200);
  });

  it('stores only a hash of the token', async () => {
    const { mail } = await addUser();
    const token = tokenOf(mail.text);
    const rows = await t.db.selectFrom('password_setup_tokens').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash.includes(token))).toBe(false);
  });

  it('sets the password once: the user logs in with it, a second use is refused', async () => {
    const { email, mail, reply } = await addUser('creator-typed-1');
    const token = tokenOf(mail.text);
    const oldToken = await t.login(email, 'creator-typed-1');

    const res = await setPassword(token, 'my-own-password-7');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: msg.passwordSet });
    expect((await login(email, 'my-own-password-7')).statusCode).toBe(200);
    expect((await login(email, 'creator-typed-1')).statusCode).toBe(401);
    // Sessions from before the change end.
    const session = await t.request({ method: 'GET', url: '/api/session', token: oldToken });
    expect(session.statusCode).toBe(401);

    const again = await setPassword(token, 'another-password-8');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: msg.setPasswordLinkInvalid });
    expect((await login(email, 'my-own-password-7')).statusCode).toBe(200);
    expect(reply.user.email).toBe(email);
  });

  it('tells the page whether the link works, with the branding its user will see', async () => {
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const branded = await t.request({
      method: 'POST',
      url: '/api/whitelabel/settings',
      token: reseller.token,
      payload: { companyName: 'Acme Messaging' },
    });
    expect(branded.statusCode, branded.body).toBe(200);
    const email = 'checked@test.local';
    await t.request({
      method: 'POST',
      url: '/api/users',
      token: reseller.token,
      payload: { name: 'Checked', email, role: 'User' },
    });
    const mail = [...t.mails].reverse().find((m) => m.to === email)!;
    const token = tokenOf(mail.text);
    const check = () =>
      t.request({ method: 'POST', url: '/api/set-password/check', payload: { token } });

    const open = await check();
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json()).toEqual({ companyName: 'Acme Messaging', companyLogo: null });
    // Checking does not spend it.
    expect((await check()).statusCode).toBe(200);
    expect((await setPassword(token, 'checked-password-1')).statusCode).toBe(200);
    const spent = await check();
    expect(spent.statusCode).toBe(400);
    expect(spent.json()).toEqual({ message: msg.setPasswordLinkInvalid });
  });

  it('refuses an expired link and changes nothing', async () => {
    const { email, mail } = await addUser('creator-typed-2');
    const token = tokenOf(mail.text);
    const user = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('password_setup_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('user_id', '=', user.id)
      .execute();
    const res = await setPassword(token, 'late-password-9');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: msg.setPasswordLinkInvalid });
    expect((await login(email, 'creator-typed-2')).statusCode).toBe(200);
    expect((await login(email, 'late-password-9')).statusCode).toBe(401);
  });

  it('expires 72 hours after it is sent', async () => {
    const { email } = await addUser();
    const row = await t.db
      .selectFrom('password_setup_tokens as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select(sql<number>`extract(epoch from p.expires_at - p.created_at)::int`.as('seconds'))
      .where('u.email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.seconds).toBe(SET_PASSWORD_LINK_TTL_HOURS * 3600);
  });

  it('refuses an unknown token, a blocked user, and a password the policy refuses', async () => {
    const unknown = await setPassword('x'.repeat(43), 'fine-password-10');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: msg.setPasswordLinkInvalid });

    const weak = await addUser('creator-typed-3');
    const weakToken = tokenOf(weak.mail.text);
    const short = await setPassword(weakToken, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json<{ message: string }>().message).toMatch(/at least 8/);
    const common = await setPassword(weakToken, 'password123');
    expect(common.statusCode).toBe(400);
    const mismatch = await setPassword(weakToken, 'fine-password-11', 'other-password-11');
    expect(mismatch.statusCode).toBe(400);
    // None of those spent the link.
    expect((await setPassword(weakToken, 'fine-password-12')).statusCode).toBe(200);

    const blocked = await addUser('creator-typed-4');
    await t.db
      .updateTable('users')
      .set({ status: 'Blocked' })
      .where('id', '=', blocked.reply.user.id)
      .execute();
    const res = await setPassword(tokenOf(blocked.mail.text), 'fine-password-13');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: msg.setPasswordLinkInvalid });
  });
});
