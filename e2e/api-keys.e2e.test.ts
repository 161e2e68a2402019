import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { server as msg, ui } from '@herald/contract';
import { apiCreateUser, apiJson, apiLogin, journey, shot } from './support/browser.js';

/**
 * API & Webhooks (docs/api.md): a user makes a key from the Profile screen's link, sees its
 * secret once and copies it, calls the API with it, revokes it, and the key answers 401; the
 * Admin sees another user's key with its owner and revokes it.
 */

type Account = { email: string; password: string; name: string; id: string };
let user: Account;
let other: Account;
const k = ui.apiKeys;

const t = journey(async (adminToken) => {
  user = await apiCreateUser(adminToken, 'User', 'Key User');
  other = await apiCreateUser(adminToken, 'Reseller', 'Key Other');
  const otherToken = (await apiLogin(other.email, other.password)).token;
  await apiJson('POST', '/api/api-keys', otherToken, { name: 'Other nightly', kind: 'test' });
});

const table = (page: Page) => page.getByRole('table', { name: k.listTitle });
const row = (page: Page, name: string) => table(page).getByRole('row').filter({ hasText: name });

/** GET /api/session from the page with the key as its bearer: the status and the body. */
function callWithKey(page: Page, secret: string) {
  return page.evaluate(async (key) => {
    const res = await fetch('/api/session', { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }, secret);
}

async function shots(page: Page, name: string) {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('API keys journey', () => {
  it('a user makes a key, sees it once, uses it, revokes it, and it answers 401', async () => {
    const page = await t.page(user);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`/profile/${user.id}`);
    await page.getByRole('link', { name: k.profileLink }).click();
    await page.getByRole('heading', { name: k.title, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/api-keys');
    await page.getByText(k.empty).waitFor();

    // A name is needed: the form says so with the server's own message.
    await page.getByRole('button', { name: k.createButton }).click();
    await page.getByText(msg.apiKeyNameRequired).waitFor();

    await page.getByLabel(k.nameLabel).fill('CI script');
    await page.getByLabel(new RegExp(`^${k.kinds.test}`)).check();
    await page.getByRole('button', { name: k.createButton }).click();
    await page.getByText(msg.apiKeyCreated('CI script')).waitFor();
    await page.getByRole('heading', { name: k.secretTitle('test') }).waitFor();
    const secret = await page.getByLabel(k.secretLabel).inputValue();
    expect(secret).toMatch(/^hk_test_[0-9A-Za-z]{43}$/);
    await page.getByRole('button', { name: k.copyButton }).click();
    await page.getByRole('button', { name: k.copied }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    // innerText leaves out the phone-only line that repeats the key at this width.
    await expect
      .poll(() => row(page, 'CI script').innerText())
      .toContain(`hk_test_…${secret.slice(-4)}`);
    await shots(page, 'api-keys-created');

    // Done puts the secret away for good: the list shows its last four characters only.
    await page.getByRole('button', { name: k.secretDone }).click();
    await page.getByLabel(k.secretLabel).waitFor({ state: 'detached' });
    await page.reload();
    await row(page, 'CI script').waitFor();
    expect(await page.content()).not.toContain(secret);

    const used = await callWithKey(page, secret);
    expect(used.status).toBe(200);
    expect(used.body).toMatchObject({ email: user.email, role: 'User' });
    await page.reload();
    await row(page, 'CI script').waitFor();
    await expect.poll(() => row(page, 'CI script').innerText()).not.toContain(k.neverUsed);
    await shots(page, 'api-keys-list');

    await row(page, 'CI script').getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('button', { name: k.revokeLabel('CI script') }).click();
    const dialog = page.getByRole('dialog', { name: k.revokeTitle });
    await dialog.getByText(k.revokeConfirm('CI script')).waitFor();
    await shot(page, 'api-keys-revoke');
    await dialog.getByRole('button', { name: k.revokeButton }).click();
    await page.getByText(k.empty).waitFor();

    const revoked = await callWithKey(page, secret);
    expect(revoked).toEqual({ status: 401, body: { message: msg.apiKeyInvalid } });
  });

  it('the Admin sees another user’s key with its owner and revokes it', async () => {
    const page = await t.page();
    await page.goto('/api-keys');
    await page.getByText(k.adminIntro).waitFor();
    const theirs = row(page, 'Other nightly');
    await theirs.getByText(other.email).waitFor();
    await shots(page, 'api-keys-admin');
    await theirs.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('button', { name: k.revokeLabel('Other nightly') }).click();
    await page
      .getByRole('dialog', { name: k.revokeTitle })
      .getByRole('button', { name: k.revokeButton })
      .click();
    await theirs.waitFor({ state: 'detached' });
  });
});
