import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  apiCreateCampaign,
  apiCreateUser,
  apiGiveCredits,
  apiLogin,
  baseUrl,
  journey,
  shot,
} from './support/browser.js';

/**
 * A row's Actions menu opens under its toggle, inside the window, at desktop and phone widths,
 * and the page never scrolls sideways into blank space (components/row-actions-menu.tsx holds the
 * one menu every table row uses).
 */
const NORMAL = 'Normal Message - domestic';
const WIDTHS = [1366, 390] as const;
const user = { email: '', password: '' };

const t = journey(async (admin) => {
  Object.assign(user, await apiCreateUser(admin, 'User', 'Menu User'));
  await apiGiveCredits(admin, user.email, NORMAL, 50);
  const token = (await apiLogin(user.email, user.password)).token;
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    ids.push(
      await apiCreateCampaign(token, {
        to: `97100000${i}0`,
        creditType: NORMAL,
        message: `Menu ${i}`,
      }),
    );
  }
  // A delivery report, so the Reports screen's Campaign Reports tab has a row.
  const form = new FormData();
  form.append('reportFile', new Blob(['number,status\n9710000000,Delivered']), 'report.csv');
  const res = await fetch(`${baseUrl()}/api/campaigns/${ids[0]}/upload-report`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}` },
    body: form,
  });
  if (!res.ok) throw new Error(`upload-report: ${res.status} ${await res.text()}`);
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Opens the first row's Actions menu of `table` and checks where it lies. */
async function checkMenu(page: Page, tableName: string, name: string, width: number) {
  await page.setViewportSize({ width, height: 800 });
  const table = page.getByRole('table', { name: tableName });
  const toggle = table.getByRole('button', { name: 'Actions' }).first();
  await toggle.scrollIntoViewIfNeeded();
  await toggle.click();
  const menu = page.locator('.dropdown-menu.show');
  await menu.waitFor();
  // Popper places the menu on the next frame; wait until it stops moving.
  await page.waitForFunction(() => {
    const el = document.querySelector('.dropdown-menu.show');
    return el?.getAttribute('data-popper-placement') !== null;
  });
  const t0 = (await toggle.boundingBox()) as Box;
  const m = (await menu.boundingBox()) as Box;
  const view = page.viewportSize()!;
  // Touches its toggle: just below it (or just above when there is no room below).
  const gapBelow = m.y - (t0.y + t0.height);
  const gapAbove = t0.y - (m.y + m.height);
  expect(Math.min(Math.abs(gapBelow), Math.abs(gapAbove)), 'menu adjacent to toggle').toBeLessThan(
    6,
  );
  // Overlaps its toggle horizontally (aligned to one of its edges).
  expect(m.x < t0.x + t0.width && m.x + m.width > t0.x, 'menu beside its toggle').toBe(true);
  // Inside the window.
  expect(m.x).toBeGreaterThanOrEqual(0);
  expect(m.y).toBeGreaterThanOrEqual(0);
  expect(m.x + m.width).toBeLessThanOrEqual(view.width);
  expect(m.y + m.height).toBeLessThanOrEqual(view.height);
  // No sideways scrolling.
  // (polled: right after a resize the layout may still be settling on a busy machine)
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
      message: 'document scrollWidth',
    })
    .toBeLessThanOrEqual(view.width);
  await page.screenshot({ path: `${import.meta.dirname}/.out/actions-menu-${name}-${width}.png` });
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
}

describe('row Actions menus open at their toggle, inside the window', () => {
  it('campaigns list (User): 1366 and 390 px', async () => {
    const page = await t.page(user);
    await page.goto('/campaigns');
    for (const width of WIDTHS) await checkMenu(page, 'Campaigns', 'campaigns', width);
    await page.context().close();
  });

  it('campaigns list and reports (Admin): 1366 and 390 px', async () => {
    const page = await t.page();
    await page.goto('/campaigns');
    for (const width of WIDTHS) await checkMenu(page, 'Campaigns', 'admin-campaigns', width);
    await page.goto('/reports');
    await page.getByRole('tab', { name: 'Campaign Reports' }).click();
    for (const width of WIDTHS) await checkMenu(page, 'Campaign Reports', 'reports', width);
    await page.context().close();
  });

  it('users list (Admin): its Actions column stays inside the page at 1366 and 390 px', async () => {
    // The users list offers one action per row, Edit, as a button rather than a menu.
    const page = await t.page();
    await page.goto('/users');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const edit = page.getByRole('table', { name: 'Users' }).getByRole('button', { name: 'Edit' });
      await edit.first().scrollIntoViewIfNeeded();
      const box = (await edit.first().boundingBox()) as Box;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(width);
      await shot(page, `actions-users-${width}`);
    }
    await page.context().close();
  });
});
