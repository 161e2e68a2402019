import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { server as msg, ui } from '@herald/contract';
import {
  apiCreateCampaign,
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  campaignRow,
  journey,
  shot,
} from './support/browser.js';

/**
 * The quieter bell (docs/product.md, Announcements and alerts): Change Status to Rejected asks the reason
 * the owner reads, every campaign notice opens that campaign's details, and 'Mark all read'
 * empties the bell at once, on a laptop and on a phone.
 */

const TYPE = 'Normal Message - domestic';
const REASON = 'The sender name is not approved yet.';
/** Recipient counts keep this file's rows apart from other journeys' campaigns. */
const COUNTS = { rejected: 41, approved: 42 };
let owner: { email: string; password: string; name: string };
const ids = { rejected: '', approved: '' };

const numbers = (n: number, base: number) =>
  Array.from({ length: n }, (_, i) => String(base + i)).join(',');

const t = journey(async (adminToken) => {
  owner = await apiCreateUser(adminToken, 'User', 'Bell Owner');
  await apiGiveCredits(adminToken, owner.email, TYPE, 200);
  const token = (await apiLogin(owner.email, owner.password)).token;
  ids.rejected = await apiCreateCampaign(token, {
    creditType: TYPE,
    message: 'Weekend brunch',
    to: numbers(COUNTS.rejected, 9_541_000_000),
  });
  ids.approved = await apiCreateCampaign(token, {
    creditType: TYPE,
    message: 'Winter menu',
    to: numbers(COUNTS.approved, 9_542_000_000),
  });
});

const row = (page: Page, count: number) =>
  campaignRow(page.getByRole('table', { name: 'Campaigns' }), owner.email, count);

async function openBell(page: Page) {
  await page.getByRole('button', { name: /^Alerts/ }).click();
  return page.locator('.alerts-menu');
}

describe('the campaign bell', () => {
  it('Change Status to Rejected asks the reason; the owner’s notice opens the campaign', async () => {
    const page = await t.page();
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/campaigns');
    await row(page, COUNTS.rejected).getByRole('button', { name: 'Actions' }).click();
    await page
      .locator('.dropdown-menu.show')
      .getByRole('button', { name: 'Change Status' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Change Status' });
    await dialog.getByLabel('Status').selectOption('Rejected');
    const reason = dialog.getByLabel('Reason (the owner reads it)');
    await reason.fill('x'.repeat(501));
    await dialog.getByText(msg.rejectReasonTooLong).waitFor();
    expect(await dialog.getByRole('button', { name: 'Update' }).isDisabled()).toBe(true);
    await reason.fill(REASON);
    await shot(page, 'bell-change-status-reason-1366');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await row(page, COUNTS.rejected).getByText('Rejected').waitFor();
    await apiJson('PUT', `/api/campaigns/status/${ids.approved}`, t.adminToken, {
      status: 'Approved',
    });
    await page.context().close();

    const mine = await t.page(owner);
    await mine.setViewportSize({ width: 390, height: 844 });
    const bell = await openBell(mine);
    const rejected = bell.getByRole('button', {
      name: msg.notifyCampaignRejected({ name: 'Weekend brunch' }, REASON),
    });
    await rejected.waitFor();
    await shot(mine, 'bell-owner-390');
    await rejected.click();
    const details = mine.getByRole('dialog', { name: 'Campaign Details' });
    expect(await details.getByTestId('campaign-rejection-reason').innerText()).toBe(REASON);
    await mine.waitForTimeout(400); // the fade-in
    await shot(mine, 'bell-deep-link-390');
    await mine.keyboard.press('Escape');

    // 'Mark all read' empties the bell (the approval notice was still unread).
    const again = await openBell(mine);
    await again.getByText(/was approved|is now Approved/).waitFor();
    await again.getByRole('button', { name: ui.alerts.markAllRead }).click();
    await again.getByText(ui.alerts.noNewAlerts).waitFor();
    await expect.poll(() => mine.getByTestId('alerts-badge').count()).toBe(0);
    await shot(mine, 'bell-all-read-390');
    await mine.context().close();
  });

  it('a link to a campaign the caller cannot see says so and opens nothing', async () => {
    const other = await apiCreateUser(t.adminToken, 'User', 'Bell Stranger');
    const page = await t.page(other);
    await page.goto(`/campaigns?open=${ids.rejected}`);
    await page.getByText(msg.campaignNotFound).waitFor();
    expect(await page.getByRole('dialog', { name: 'Campaign Details' }).count()).toBe(0);
    await page.context().close();
  });
});
