import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { REPORT_FILTER_LABELS, ui, type Campaign } from '@herald/contract';
import {
  apiCreateUser,
  apiCreateCampaign,
  apiGiveCredits,
  apiJson,
  apiLogin,
  campaignRow,
  journey,
  shotWidths,
} from './support/browser.js';

/**
 * The report of a campaign the simulator delivered: the owner filters Failed, searches a number,
 * reads the provider's reason and the time of the last change, and exports what the filter
 * shows (docs/product.md, Campaigns, "Results"). Needs the dispatcher and the in-process
 * simulator (the app's default).
 */

const TYPE = 'Normal Message - domestic';
const COUNT = 17;
/** The first number ends in 0000: the simulator refuses it for good (131026). */
const BASE = 9_720_000_000;
const REFUSED = String(BASE);
/** Digits only the refused number holds: its others end in 01 … 16, after six zeros. */
const SEARCH = REFUSED.slice(1);

let user: { email: string; password: string };
let campaignId = '';

const t = journey(async (adminToken) => {
  user = await apiCreateUser(adminToken, 'User', 'Report Filter User');
  await apiGiveCredits(adminToken, user.email, TYPE, 100);
  const token = (await apiLogin(user.email, user.password)).token;
  const to = Array.from({ length: COUNT }, (_, i) => String(BASE + i)).join(',');
  campaignId = await apiCreateCampaign(token, { creditType: TYPE, message: 'Report filter', to });
  await apiJson('PUT', `/api/campaigns/status/${campaignId}`, adminToken, { status: 'Approved' });
});

async function openReport(page: Page) {
  await page
    .getByRole('navigation')
    .getByRole('link', { name: 'My Campaigns', exact: true })
    .click();
  const row = campaignRow(page.getByRole('table', { name: 'Campaigns' }), user.email, COUNT);
  await row.getByText('Report Generated').waitFor();
  await row.getByRole('button', { name: 'Actions' }).click();
  await page.locator('.dropdown-menu.show').getByRole('button', { name: 'View Report' }).click();
  return page.getByRole('dialog', { name: /Delivery Report/ });
}

describe('campaign report: filter, search, reason, export', () => {
  it('the owner filters Failed, searches a number and exports what is shown', async () => {
    // The simulator delivers it and the engine settles it into a report.
    await expect
      .poll(
        async () =>
          (await apiJson<Campaign>('GET', `/api/campaigns/${campaignId}`, t.adminToken)).status,
        {
          timeout: 60_000,
          interval: 500,
        },
      )
      .toBe('Report Generated');
    const page = await t.page(user);
    const report = await openReport(page);
    const list = report.getByRole('table', { name: 'Delivery report' });
    await list.getByRole('cell', { name: REFUSED, exact: true }).waitFor();

    await report.getByLabel(ui.reports.filterLabel).selectOption({
      label: REPORT_FILTER_LABELS.failed,
    });
    const refusedRow = list.getByRole('row').filter({ hasText: REFUSED });
    await refusedRow.getByText('131026: Message undeliverable').waitFor();
    // Every row left is one not counted delivered.
    await expect
      .poll(async () => {
        const statuses = await list.locator('tbody .badge').allInnerTexts();
        return statuses.length > 0 && statuses.every((s) => !/^(Delivered|Read)$/i.test(s));
      })
      .toBe(true);
    // The last change is a formatted time, not "-".
    const changed = await refusedRow.locator('td').nth(3).innerText();
    expect(changed).toMatch(/\d/);

    await report.getByLabel(ui.reports.searchLabel).fill(SEARCH);
    await expect.poll(() => list.locator('tbody tr').count()).toBe(1);
    await refusedRow.getByText('131026: Message undeliverable').waitFor();
    await report.getByRole('button', { name: ui.reports.exportFiltered }).waitFor();
    await report.getByText(ui.reports.exportNote).waitFor();

    await report.getByLabel(ui.reports.searchLabel).fill('99999');
    await report.getByText(ui.reports.noMatch).waitFor();
    await report.getByLabel(ui.reports.searchLabel).fill(SEARCH);
    await refusedRow.waitFor();

    const download = page.waitForEvent('download');
    await report.getByRole('button', { name: ui.reports.exportFiltered }).click();
    const file = await download;
    const csv = fs
      .readFileSync((await file.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe('recipient,status,reason,last_change');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toMatch(
      new RegExp(
        `^${REFUSED},Failed,131026: Message undeliverable,\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`,
      ),
    );

    await report.getByLabel(ui.reports.searchLabel).fill('');
    await refusedRow.waitFor();
    await shotWidths(page, 'campaign-report-failed');
    await page.setViewportSize({ width: 390, height: 844 });
    // On a phone the reason moves under the number and nothing scrolls sideways.
    await refusedRow.getByText('131026: Message undeliverable').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.close();
  }, 120_000);
});
