import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Role } from '@herald/contract';
import {
  adminCredentials,
  apiCreateCampaign,
  apiCreateUser,
  apiGiveCredits,
  apiLogin,
  journey,
  shot,
} from './support/browser.js';

/**
 * Every dashboard card is live for the caller's scope (docs/product.md, Decisions), and
 * the dark side menu runs the full height of the window, staying put while a long page scrolls.
 */
const NORMAL = 'Normal Message - domestic';
const CAMPAIGNS = 24;

/** A screenshot of the window only (shot() takes the full page), under e2e/.out. */
const windowShot = (page: Page, name: string) =>
  page.screenshot({ path: fileURLToPath(new URL(`./.out/${name}.png`, import.meta.url)) });

const creds = {} as Record<Role, { email: string; password: string }>;

const t = journey(async () => {
  creds.Admin = adminCredentials();
  const admin = (await apiLogin(creds.Admin.email, creds.Admin.password)).token;
  creds.Reseller = await apiCreateUser(admin, 'Reseller', 'Dash Reseller');
  const reseller = (await apiLogin(creds.Reseller.email, creds.Reseller.password)).token;
  creds['Sub-Reseller'] = await apiCreateUser(reseller, 'Sub-Reseller', 'Dash Sub');
  const sub = (await apiLogin(creds['Sub-Reseller'].email, creds['Sub-Reseller'].password)).token;
  creds.User = await apiCreateUser(sub, 'User', 'Dash User');
  const user = (await apiLogin(creds.User.email, creds.User.password)).token;
  await apiGiveCredits(admin, creds.User.email, NORMAL, 100);
  // Enough campaigns for a long campaigns page; each new one is Submitted, so active.
  for (let i = 0; i < CAMPAIGNS; i++) {
    await apiCreateCampaign(user, {
      to: `98000000${String(i).padStart(2, '0')}`,
      creditType: NORMAL,
      message: `Dash ${i}`,
    });
  }
});

async function card(page: Page, title: string): Promise<string> {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const value = page.getByTestId(`dashboard-${slug}-value`);
  await value.waitFor();
  return value.innerText();
}

async function open(role: Role): Promise<Page> {
  const page = await t.page(creds[role]);
  return page;
}

describe('dashboards are live for each role', () => {
  // The Admin sees every campaign of the run (other files may add more): at least ours.
  it('Admin: Active Campaigns counts the Submitted campaigns; no card is "Not tracked yet"', async () => {
    const page = await open('Admin');
    await page.waitForURL('**/admin');
    expect(Number((await card(page, 'Active Campaigns')).replace(/,/g, ''))).toBeGreaterThanOrEqual(
      CAMPAIGNS,
    );
    expect(await card(page, 'Open Support Tickets')).toMatch(/^\d[\d,]*$/);
    expect(await page.getByText('Not tracked yet').count()).toBe(0);
    await shot(page, 'dashboard-live-admin');
    await page.context().close();
  });

  it.each(['Reseller', 'Sub-Reseller'] as Role[])(
    "%s: My Active Campaigns counts its subtree's",
    async (role) => {
      const page = await open(role);
      expect(await card(page, 'My Active Campaigns')).toBe(String(CAMPAIGNS));
      expect(await card(page, 'My Total Users')).toBe(role === 'Reseller' ? '2' : '1');
      expect(await card(page, 'My Open Tickets')).toBe('0');
      expect(await page.getByText('Not tracked yet').count()).toBe(0);
      await shot(page, `dashboard-live-${role.toLowerCase()}`);
      await page.context().close();
    },
  );

  it('User: Campaigns Sent, Credits Remaining, Avg. Success Rate (a dash before any report)', async () => {
    const page = await open('User');
    expect(await card(page, 'Campaigns Sent')).toBe('0');
    // Per credit type (dashboard-balances.e2e.test.ts covers the card in full).
    const remaining = page.getByTestId('dashboard-credits-remaining-type');
    await expect.poll(() => remaining.allInnerTexts()).toEqual([`${NORMAL}\n${100 - CAMPAIGNS}`]);
    expect(await card(page, 'Avg. Success Rate')).toBe('—');
    expect(await card(page, 'My Open Tickets')).toBe('0');
    expect(await page.getByText('Not tracked yet').count()).toBe(0);
    await shot(page, 'dashboard-live-user');
    await page.context().close();
  });
});

describe('the side menu runs the full height of the window', () => {
  const menu = (page: Page) => page.locator('aside.app-sidebar');
  const contents = (page: Page) => page.locator('aside.app-sidebar .app-sidebar-inner');

  it('covers the viewport on a long campaigns page scrolled to the bottom', async () => {
    const page = await open('User');
    await page.getByRole('navigation').getByRole('link', { name: 'My Campaigns' }).click();
    await expect.poll(() => page.locator('table tbody tr').count()).toBeGreaterThanOrEqual(20);
    const viewport = page.viewportSize()!;
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeGreaterThan(viewport.height * 1.5);
    // The dark column is as tall as the page, not the first screen (a full-page shot shows it).
    expect((await menu(page).boundingBox())!.height).toBeGreaterThanOrEqual(height - 1);
    await shot(page, 'side-menu-long-page');

    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const box = (await menu(page).boundingBox())!;
    expect(box.y).toBeLessThanOrEqual(0.5);
    expect(box.y + box.height).toBeGreaterThanOrEqual(viewport.height - 0.5);
    // Its contents stay in the window: from the top, the window's height, Logout in view.
    const inner = (await contents(page).boundingBox())!;
    expect(Math.abs(inner.y)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(inner.height - viewport.height)).toBeLessThanOrEqual(0.5);
    await expect.poll(() => page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    await windowShot(page, 'side-menu-scrolled');
    await page.context().close();
  });

  it('scrolls on its own when the window is shorter than the menu; stacks on top on a phone', async () => {
    const page = await open('Admin');
    await page.waitForURL('**/admin');
    await page.setViewportSize({ width: 1280, height: 360 });
    const inner = contents(page);
    await expect.poll(async () => Math.round((await inner.boundingBox())!.height)).toBe(360);
    expect(await inner.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await inner.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    await windowShot(page, 'side-menu-short-window');

    // Phone: the menu sits on top, full width, its links folded behind the Menu button.
    await page.setViewportSize({ width: 390, height: 800 });
    await expect.poll(async () => Math.round((await menu(page).boundingBox())!.width)).toBe(390);
    expect((await menu(page).boundingBox())!.height).toBeLessThan(400);
    expect(await page.getByRole('navigation').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect.poll(() => page.getByRole('navigation').isVisible()).toBe(true);
    await windowShot(page, 'side-menu-phone');
    await page.context().close();
  });
});
