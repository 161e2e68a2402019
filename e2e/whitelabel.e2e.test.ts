import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEFAULT_COMPANY_NAME, server, ui } from '@herald/contract';
import {
  apiCreateUser,
  apiLogin,
  journey,
  loginUi,
  newPage,
  shot,
  shotWidths,
} from './support/browser.js';
import { barPng } from './support/png.js';

/**
 * White-label (docs/product.md, Branding): a reseller sets its company name and a logo on the
 * Whitelabel Settings screen (preview before saving, a non-image refused); its own layout changes
 * at once, its users (two levels down too) see the logo and the name in the tab title on their
 * next page load; a nearer Sub-Reseller's branding wins; a broken logo is hidden. The Admin's
 * branding is the platform default, seen, changed and reset on the same screen; a User has none.
 */

type Creds = { email: string; password: string; name: string };
const COMPANY = `Acme Telecom ${Date.now() % 1e5}`;
const SUB_COMPANY = `Sub Brand ${Date.now() % 1e5}`;
let reseller: Creds;
let sub: Creds;
let deepUser: Creds; // reseller > sub-reseller > user
let directUser: Creds; // reseller > user
let plainUser: Creds; // created by the Admin: no branded creator

const t = journey(async (adminToken) => {
  reseller = await apiCreateUser(adminToken, 'Reseller', 'WL Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  sub = await apiCreateUser(resellerToken, 'Sub-Reseller', 'WL Sub');
  const subToken = (await apiLogin(sub.email, sub.password)).token;
  deepUser = await apiCreateUser(subToken, 'User', 'WL Deep User');
  directUser = await apiCreateUser(resellerToken, 'User', 'WL Direct User');
  plainUser = await apiCreateUser(adminToken, 'User', 'WL Plain User');
});

const sideLogo = (page: Page) => page.locator('aside.app-sidebar img.brand-logo');

/** The side menu's logo has loaded as an image (not broken). */
async function logoLoaded(page: Page): Promise<boolean> {
  return sideLogo(page).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
}

async function openSettings(page: Page): Promise<void> {
  await page
    .locator('aside.app-sidebar nav')
    .getByRole('link', { name: 'Whitelabel Settings', exact: true })
    .click();
  await page.waitForURL('**/whitelabel-settings');
  await page.getByRole('heading', { name: ui.whitelabel.title }).waitFor();
  await page.getByLabel(ui.whitelabel.companyName).waitFor();
}

describe('Whitelabel Settings', () => {
  it('lets a reseller set name and logo, previewed before saving; its layout changes at once', async () => {
    const page = await t.page(reseller);
    expect(await page.title()).toBe(DEFAULT_COMPANY_NAME);
    await openSettings(page);
    await expect.poll(() => page.getByText(ui.whitelabel.logoHint).count()).toBe(1);
    await expect.poll(() => page.getByText(ui.whitelabel.noLogo).count()).toBe(1);

    // A text file named logo.png is refused by its bytes before anything is sent.
    const logoInput = page.getByLabel(ui.whitelabel.companyLogo);
    await logoInput.setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('definitely not an image'),
    });
    await expect.poll(() => page.getByText(server.logoType).count()).toBe(1);

    await page.getByLabel(ui.whitelabel.companyName).fill(COMPANY);
    await logoInput.setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: barPng(200, 50, '2a9d8f'),
    });
    await expect.poll(() => page.getByText(server.logoType).count()).toBe(0);
    const preview = page.getByAltText(`${COMPANY} logo preview`);
    await expect
      .poll(() =>
        preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 200),
      )
      .toBe(true);
    // Not saved yet: the side menu still shows the house name.
    expect(await sideLogo(page).count()).toBe(0);
    await shot(page, 'whitelabel-settings-preview');

    await page.getByRole('button', { name: ui.whitelabel.save }).click();
    await expect.poll(() => page.getByText(ui.whitelabel.updated).count()).toBe(1);
    await expect.poll(() => sideLogo(page).count()).toBe(1);
    await expect.poll(() => logoLoaded(page)).toBe(true);
    expect(await sideLogo(page).getAttribute('alt')).toBe(COMPANY);
    await expect.poll(() => page.title()).toBe(COMPANY);
    await shot(page, 'whitelabel-settings-saved');

    // The stored values come back on a fresh load.
    await page.reload();
    await page.getByLabel(ui.whitelabel.companyName).waitFor();
    expect(await page.getByLabel(ui.whitelabel.companyName).inputValue()).toBe(COMPANY);
    await expect.poll(() => page.getByAltText(`${COMPANY} logo preview`).count()).toBe(1);
    await page.context().close();
  });

  it("shows the reseller's logo and name to its users, two levels down too", async () => {
    for (const user of [directUser, deepUser]) {
      const page = await t.page(user);
      await expect.poll(() => logoLoaded(page)).toBe(true);
      expect(await sideLogo(page).getAttribute('alt')).toBe(COMPANY);
      await expect.poll(() => page.title()).toBe(COMPANY);
      // Users have no Whitelabel Settings screen.
      expect(await page.getByRole('link', { name: 'Whitelabel Settings' }).count()).toBe(0);
      if (user === deepUser) await shot(page, 'whitelabel-user-branded');
      await page.goto('/whitelabel-settings');
      await page.waitForURL('**/unauthorized');
      await page.context().close();
    }
  });

  it("a Sub-Reseller's own branding wins for its users on their next page load", async () => {
    const userPage = await t.page(deepUser);
    await expect.poll(() => userPage.title()).toBe(COMPANY);

    const subPage = await t.page(sub);
    await openSettings(subPage);
    await subPage.getByLabel(ui.whitelabel.companyName).fill(SUB_COMPANY);
    await subPage.getByRole('button', { name: ui.whitelabel.save }).click();
    await expect.poll(() => subPage.getByText(ui.whitelabel.updated).count()).toBe(1);
    // Its own layout at once: a name and no logo.
    await expect.poll(() => subPage.title()).toBe(SUB_COMPANY);
    expect(await sideLogo(subPage).count()).toBe(0);
    await expect
      .poll(() => subPage.locator('aside.app-sidebar').getByText(SUB_COMPANY).count())
      .toBe(1);
    await shot(subPage, 'whitelabel-subreseller');

    await userPage.reload();
    await expect.poll(() => userPage.title()).toBe(SUB_COMPANY);
    await expect
      .poll(() => userPage.locator('aside.app-sidebar').getByText(SUB_COMPANY).count())
      .toBe(1);
    expect(await sideLogo(userPage).count()).toBe(0);
    await userPage.context().close();
    await subPage.context().close();
  });

  it('shows a placeholder bar while branding loads and hides a logo that fails', async () => {
    const page = await newPage(t.browser);
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/whitelabel/my-branding', async (route) => {
      await held;
      await route.continue();
    });
    await page.route('**/api/files/logos/**', (route) => route.fulfill({ status: 404 }));
    await loginUi(page, directUser.email, directUser.password);
    await expect
      .poll(() => page.locator('aside.app-sidebar .brand-placeholder').isVisible())
      .toBe(true);
    release();
    // The logo answers 404: the image goes, the company name takes its place.
    await expect
      .poll(() => page.locator('aside.app-sidebar').getByText(COMPANY, { exact: true }).count())
      .toBe(1);
    expect(await sideLogo(page).count()).toBe(0);
    expect(await page.title()).toBe(COMPANY);
    await page.context().close();
  });

  it("gives the Admin the platform's default branding to see, change and reset", async () => {
    const house = `Platform ${Date.now() % 1e5}`;
    const page = await t.page();
    await openSettings(page);
    await expect.poll(() => page.getByText(ui.whitelabel.adminIntro).count()).toBe(1);
    await page.getByLabel(ui.whitelabel.companyName).fill(house);
    await page.getByRole('button', { name: ui.whitelabel.save }).click();
    await expect.poll(() => page.getByText(ui.whitelabel.updated).count()).toBe(1);
    await expect.poll(() => page.title()).toBe(house);
    await expect
      .poll(() => page.getByTestId('whitelabel-shown').innerText())
      .toBe(ui.whitelabel.currentlyShown(house));
    await shotWidths(page, 'whitelabel-admin-saved');

    // A user with no branded creator sees the Admin's; the branded reseller's users keep theirs.
    const plainPage = await t.page(plainUser);
    await expect.poll(() => plainPage.title()).toBe(house);
    await expect
      .poll(() => plainPage.locator('aside.app-sidebar').getByText(house, { exact: true }).count())
      .toBe(1);
    const brandedPage = await t.page(directUser);
    await expect.poll(() => brandedPage.title()).toBe(COMPANY);

    await page.getByRole('button', { name: ui.whitelabel.reset }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: ui.whitelabel.resetConfirmTitle });
    await dialog.getByText(ui.whitelabel.resetConfirm).waitFor();
    await shotWidths(page, 'whitelabel-admin-reset-confirm');
    await dialog.getByRole('button', { name: ui.whitelabel.reset }).click();
    await expect.poll(() => page.getByText(ui.whitelabel.resetDone).count()).toBe(1);
    await expect.poll(() => page.title()).toBe(DEFAULT_COMPANY_NAME);
    expect(await page.getByLabel(ui.whitelabel.companyName).inputValue()).toBe('');
    // The dialog fades out; then the screen has nothing left to reset.
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => page.getByRole('button', { name: ui.whitelabel.reset }).count())
      .toBe(0);
    await shotWidths(page, 'whitelabel-admin-reset');

    await plainPage.reload();
    await expect.poll(() => plainPage.title()).toBe(DEFAULT_COMPANY_NAME);
    for (const p of [page, plainPage, brandedPage]) await p.context().close();
  });
});
