import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_NAME, type Branding } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, multipart, type Hierarchy } from '../users/test-fixtures.js';

/**
 * The mail a user receives speaks for that user's branding (docs/product.md, Branding): sender
 * name, subject and text; the Admin's branding is the default of everyone below without a nearer one.
 */
let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  // R1 → S1 → U1 and R1 → U2 are under a branded Reseller; R2 → U3 is not.
  await brand(h.r1.token, 'Acme Messaging');
});
afterAll(() => t.close());

async function brand(token: string, companyName: string) {
  const res = await t.request({
    method: 'POST',
    url: '/api/whitelabel/settings',
    token,
    ...multipart({ companyName }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function brandingOf(token: string) {
  const res = await t.request({ method: 'GET', url: '/api/whitelabel/my-branding', token });
  return res.json<Branding>();
}

let n = 0;
async function mailOfNewUser(creatorToken: string) {
  n++;
  const email = `mail-${n}@test.local`;
  const res = await t.request({
    method: 'POST',
    url: '/api/users',
    token: creatorToken,
    payload: { name: `Mail ${n}`, email, role: 'User' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return [...t.mails].reverse().find((m) => m.to === email)!;
}

async function forgotMail(email: string) {
  await t.request({ method: 'POST', url: '/api/forgot-password', payload: { email } });
  return [...t.mails].reverse().find((m) => m.to === email)!;
}

describe('mail under a branded Reseller', () => {
  it("carries the Reseller's company name as sender, in the subject and the text", async () => {
    for (const creator of [h.r1.token, h.s1.token]) {
      const mail = await mailOfNewUser(creator);
      expect(mail.fromName).toBe('Acme Messaging');
      expect(mail.subject).toBe('Your Acme Messaging account');
      expect(mail.text).toContain('created your Acme Messaging account');
      expect(`${mail.subject}\n${mail.text}`).not.toContain(DEFAULT_COMPANY_NAME);
    }
  });

  it('also for the reset code and the password notices', async () => {
    const code = await forgotMail(h.u1.user.email);
    expect(code.fromName).toBe('Acme Messaging');
    expect(code.subject).toBe('Your Acme Messaging password reset code');
    expect(`${code.subject}\n${code.text}`).not.toContain(DEFAULT_COMPANY_NAME);

    const reset = await t.request({
      method: 'PUT',
      url: `/api/users/admin-reset-password/${h.u2.user.id}`,
      token: h.admin,
      payload: { newPassword: 'admin-set-password-1' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const notice = [...t.mails].reverse().find((m) => m.to === h.u2.user.email)!;
    expect(notice.fromName).toBe('Acme Messaging');
    expect(notice.text).toContain('your Acme Messaging account');
    expect(`${notice.subject}\n${notice.text}`).not.toContain(DEFAULT_COMPANY_NAME);
  });

  it('a user outside any brand gets the house name', async () => {
    const mail = await mailOfNewUser(h.r2.token);
    expect(mail.fromName).toBe(DEFAULT_COMPANY_NAME);
    expect(mail.subject).toBe(`Your ${DEFAULT_COMPANY_NAME} account`);
  });
});

describe("the Admin's branding", () => {
  it('is the default below it: a user without a branded creator sees and gets it', async () => {
    await brand(h.admin, 'Platform Co');
    try {
      expect((await brandingOf(h.u3.token)).companyName).toBe('Platform Co');
      expect((await brandingOf(h.r2.token)).companyName).toBe('Platform Co');
      // A nearer brand wins.
      expect((await brandingOf(h.u1.token)).companyName).toBe('Acme Messaging');
      const mail = await mailOfNewUser(h.r2.token);
      expect(mail.fromName).toBe('Platform Co');
      expect(mail.subject).toBe('Your Platform Co account');
      expect((await mailOfNewUser(h.r1.token)).fromName).toBe('Acme Messaging');
    } finally {
      await brand(h.admin, '');
    }
    // Reset: the house name again.
    expect((await brandingOf(h.u3.token)).companyName).toBe(DEFAULT_COMPANY_NAME);
    expect((await mailOfNewUser(h.r2.token)).fromName).toBe(DEFAULT_COMPANY_NAME);
  });
});
