import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ui } from '@herald/contract';
import { adminCredentials, apiCreateUser, apiLogin, journey, shot } from './support/browser.js';
import { solidPng } from './support/png.js';

const PNG = solidPng(160, 60, '2f6fdf');
const TITLE = `<script>window.__xss=1</script><img src=x onerror="window.__xss=1"> News ${Date.now() % 1e7}`;
const MESSAGE = 'Line one\nLine two';
const LINK = 'https://example.com/news';

type Creds = { email: string; password: string };
let reseller: Creds;
let sub: Creds;
let targeted: Creds;
let untargeted: Creds;

const t = journey(async (adminToken) => {
  reseller = await apiCreateUser(adminToken, 'Reseller', 'Ann Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  sub = await apiCreateUser(resellerToken, 'Sub-Reseller', 'Ann Sub');
  const subToken = (await apiLogin(sub.email, sub.password)).token;
  targeted = await apiCreateUser(subToken, 'User', 'Ann Targeted');
  untargeted = await apiCreateUser(resellerToken, 'User', 'Ann Untargeted');
});

const xssRan = (page: Page) =>
  page.evaluate(() => (window as unknown as { __xss?: number }).__xss === 1);

async function openHistory(page: Page) {
  await page.goto('/announcements-history');
  await page.getByRole('heading', { name: 'Announcements', exact: true }).waitFor();
  await page
    .getByRole('status')
    .waitFor({ state: 'detached' })
    .catch(() => {});
}

describe('announcements', () => {
  it('Admin posts one with an image and a link to one user; only that user sees it', async () => {
    const admin = await t.page();
    await admin.goto('/admin-announcements');
    await admin.getByRole('heading', { name: 'Manage Announcements' }).waitFor();
    const form = admin.getByRole('form', { name: 'Create Announcement' });
    await form.getByLabel('Title').fill(TITLE);
    await form.getByLabel('Message').fill(MESSAGE);
    await form.getByLabel('Link (optional)').fill(LINK);
    await form.getByLabel('Image (optional)').setInputFiles({
      name: 'news.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await form.getByLabel('Visibility').selectOption('specific');
    await form.getByLabel('User emails').fill(targeted.email);
    await form.getByRole('button', { name: 'Create Announcement' }).click();
    await admin.getByText(ui.announcements.created).waitFor();
    const table = admin.getByRole('table', { name: 'Existing Announcements' });
    await table.getByRole('cell', { name: TITLE, exact: true }).waitFor();
    await table.getByText(targeted.email, { exact: false }).waitFor();
    expect(await xssRan(admin)).toBe(false);
    await shot(admin, 'announcements-manage');

    // A link that is not http(s) is refused with the schema's message, before any request.
    await form.getByLabel('Title').fill('Bad link');
    await form.getByLabel('Message').fill('x');
    await form.getByLabel('Link (optional)').fill('javascript:alert(1)');
    await form.getByRole('button', { name: 'Create Announcement' }).click();
    await form.getByText('The link must be an http(s) URL.').waitFor();

    // An unknown target email: the contract's failure text, with the server's reason.
    await form.getByLabel('Link (optional)').fill('');
    await form.getByLabel('Visibility').selectOption('specific');
    await form.getByLabel('User emails').fill('nobody@e2e.invalid');
    await form.getByRole('button', { name: 'Create Announcement' }).click();
    const failed = admin.getByRole('alert').filter({ hasText: ui.announcements.createFailed });
    await failed.getByText('No user with the email nobody@e2e.invalid.').waitFor();

    const user = await t.page(targeted);
    await openHistory(user);
    const item = user.locator('.accordion-item').first();
    await item.getByText(TITLE, { exact: false }).waitFor();
    // The first item starts open: its message shows with its line break, its image loaded.
    const body = item.locator('.accordion-body');
    await body.waitFor({ state: 'visible' });
    expect(await body.locator('p').innerText()).toBe(MESSAGE);
    const img = body.locator('img');
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(160);
    expect(await body.getByRole('link', { name: 'Learn More' }).getAttribute('href')).toBe(LINK);
    expect(await xssRan(user)).toBe(false);
    await shot(user, 'announcements-history-targeted');

    const other = await t.page(untargeted);
    await openHistory(other);
    await expect.poll(() => other.getByText(TITLE, { exact: false }).count()).toBe(0);
    await shot(other, 'announcements-history-untargeted');

    // Delete, behind its confirmation.
    await table.getByRole('button', { name: `Delete ${TITLE}` }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText(ui.announcements.confirmDelete(TITLE)).waitFor();
    await shot(admin, 'announcements-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await admin.getByText(ui.announcements.deleted).waitFor();
    await expect.poll(() => table.getByRole('cell', { name: TITLE, exact: true }).count()).toBe(0);
    await openHistory(user);
    await expect.poll(() => user.getByText(TITLE, { exact: false }).count()).toBe(0);
  });

  it('every role opens the history; only Admin opens Manage Announcements', async () => {
    for (const creds of [adminCredentials(), reseller, sub, targeted]) {
      const page = await t.page(creds);
      await openHistory(page);
      await page.goto('/admin-announcements');
      if (creds.email === adminCredentials().email) {
        await page.getByRole('heading', { name: 'Manage Announcements' }).waitFor();
      } else {
        await page.waitForURL('**/unauthorized');
      }
      await page.context().close();
    }
  });
});
