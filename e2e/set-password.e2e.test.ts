import { describe, expect, it } from 'vitest';
import { server, setPasswordMessages as text, ui } from '@herald/contract';
import {
  apiCreateUser,
  apiJson,
  apiLogin,
  journey,
  loginUi,
  mailFromOutbox,
  newPage,
  setPasswordLinkFromOutbox,
  shotWidths,
} from './support/browser.js';

/**
 * A new user's set-password link (docs/product.md, Roles and scope): the mail holds a one-time
 * link and no password, under the brand of the user's Reseller; the page shows that brand and
 * sets a password that meets the policy, the user logs in with it, and the same link a second
 * time says why it no longer works.
 */
type Creds = { email: string; password: string; name: string };
const COMPANY = `Link Brand ${Date.now() % 1e5}`;
let user: Creds;
const t = journey(async (adminToken) => {
  const reseller = await apiCreateUser(adminToken, 'Reseller', 'Link Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  await apiJson('POST', '/api/whitelabel/settings', resellerToken, { companyName: COMPANY });
  user = await apiCreateUser(resellerToken, 'User', 'Link User');
});

const OWN_PASSWORD = 'my-own-secret-42';

describe('Set password from the mailed link', () => {
  it('sets a password the user then logs in with', async () => {
    const mail = await mailFromOutbox(user.email);
    expect(mail).not.toContain(user.password);
    // The mail and the page speak for the user's brand.
    expect(mail).toContain(`From: ${COMPANY} <`);
    const link = await setPasswordLinkFromOutbox(user.email);

    const page = await newPage(t.browser);
    await page.goto(link);
    await page.getByRole('heading', { name: text.title }).waitFor();
    await page.getByRole('heading', { name: COMPANY }).waitFor();
    await shotWidths(page, 'set-password-form');

    // The policy holds here as everywhere: too short, then not confirmed.
    await page.getByLabel(text.newPassword).fill('short');
    await page.getByLabel(text.confirmPassword).fill('short');
    await page.getByRole('button', { name: text.submit }).click();
    await expect
      .poll(() => page.getByText('Password must be at least 8 characters.').count())
      .toBe(1);
    await page.getByLabel(text.newPassword).fill(OWN_PASSWORD);
    await page.getByLabel(text.confirmPassword).fill(`${OWN_PASSWORD}x`);
    await page.getByRole('button', { name: text.submit }).click();
    await expect.poll(() => page.getByText('New passwords do not match.').count()).toBe(1);
    await shotWidths(page, 'set-password-invalid');

    await page.getByLabel(text.confirmPassword).fill(OWN_PASSWORD);
    await page.getByRole('button', { name: text.submit }).click();
    // The server hashes the password first: on a busy machine that takes more than a second.
    await page.getByText(server.passwordSet).waitFor({ timeout: 20_000 });
    await shotWidths(page, 'set-password-done');
    await page.getByRole('link', { name: text.toLogin }).click();
    await page.waitForURL('**/login');
    await loginUi(page, user.email, OWN_PASSWORD);
    await page.waitForURL('**/user-dashboard');
    await page.context().close();
  });

  it('refuses the same link a second time with a clear message, changing nothing', async () => {
    const link = await setPasswordLinkFromOutbox(user.email);
    const page = await newPage(t.browser);
    await page.goto(link);
    await page.getByText(server.setPasswordLinkInvalid).waitFor({ timeout: 20_000 });
    expect(await page.getByLabel(text.newPassword).count()).toBe(0);
    await shotWidths(page, 'set-password-used');
    // A link cut short says so without asking the server.
    await page.goto('/set-password');
    await expect.poll(() => page.getByText(text.noToken).count()).toBe(1);
    // The password set before still logs in.
    const login = await newPage(t.browser);
    await loginUi(login, user.email, OWN_PASSWORD);
    await expect.poll(() => login.getByText(ui.unauthorizedAccess).count()).toBe(0);
    for (const p of [page, login]) await p.context().close();
  });
});
