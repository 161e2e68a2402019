import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import type { Download, Page } from 'playwright-core';
import { ui } from '@herald/contract';
import {
  apiBalance,
  apiCreateCampaign,
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  campaignRow,
  journey,
  shot,
} from './support/browser.js';
import { pickSearchOption } from './support/search-select.js';

const TYPE = 'Normal Message - domestic';
let reseller: { email: string; password: string; name: string };
let user: { email: string; password: string; name: string };
/** Campaign ids by role in the journey; the recipient counts keep the rows apart. */
const ids = {
  userRejected: '',
  userCancel: '',
  resellerReport: '',
  resellerForUser: '',
  resellerLarge: '',
};
const COUNTS = {
  userRejected: 13,
  userCancel: 12,
  resellerReport: 14,
  resellerForUser: 15,
  resellerLarge: 2500,
};

const numbers = (n: number, base: number) =>
  Array.from({ length: n }, (_, i) => String(base + i)).join(',');

const t = journey(async (adminToken) => {
  reseller = await apiCreateUser(adminToken, 'Reseller', 'Camp Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  user = await apiCreateUser(resellerToken, 'User', 'Camp User');
  const userToken = (await apiLogin(user.email, user.password)).token;
  await apiGiveCredits(adminToken, reseller.email, TYPE, 3000);
  await apiGiveCredits(adminToken, user.email, TYPE, 100);
  const msg = (m: string) => ({ creditType: TYPE, message: m });
  ids.userRejected = await apiCreateCampaign(userToken, {
    ...msg('User campaign to reject'),
    to: numbers(COUNTS.userRejected, 9_100_000_000),
  });
  ids.userCancel = await apiCreateCampaign(userToken, {
    ...msg('User campaign to cancel'),
    to: numbers(COUNTS.userCancel, 9_200_000_000),
  });
  ids.resellerReport = await apiCreateCampaign(resellerToken, {
    ...msg('Reseller campaign with a report'),
    to: numbers(COUNTS.resellerReport, 9_300_000_000),
  });
  ids.resellerForUser = await apiCreateCampaign(resellerToken, {
    ...msg('Reseller campaign for its user'),
    to: numbers(COUNTS.resellerForUser, 9_400_000_000),
    userEmail: user.email,
  });
  ids.resellerLarge = await apiCreateCampaign(resellerToken, {
    ...msg('A larger list'),
    to: numbers(COUNTS.resellerLarge, 9_700_000_000),
  });
});

/** The row of this journey's campaign with `count` recipients (made for the user or the reseller). */
function row(page: Page, count: number) {
  const forUser = [COUNTS.userRejected, COUNTS.userCancel, COUNTS.resellerForUser].includes(count);
  const table = page.getByRole('table', { name: 'Campaigns' });
  return campaignRow(table, forUser ? user.email : reseller.email, count);
}

/** Opens the row's Actions menu and returns it. */
async function actions(page: Page, count: number) {
  await row(page, count).getByRole('button', { name: 'Actions' }).click();
  const menu = page.locator('.dropdown-menu.show');
  await menu.waitFor();
  return menu;
}

async function act(page: Page, count: number, label: string) {
  const menu = await actions(page, count);
  await menu.getByRole('button', { name: label, exact: true }).click();
}

/** The labels a row's Actions menu offers (the menu is closed again). */
async function actionLabels(page: Page, count: number) {
  const menu = await actions(page, count);
  const labels = await menu.getByRole('button').allInnerTexts();
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
  return labels;
}

function filters(page: Page) {
  return page.locator('.card').filter({ has: page.getByRole('heading', { name: 'Filters' }) });
}

async function openCampaigns(page: Page, menuLabel: string) {
  await page.getByRole('navigation').getByRole('link', { name: menuLabel, exact: true }).click();
  await page.waitForURL('**/campaigns');
  await page.getByRole('heading', { name: menuLabel, exact: true }).waitFor();
}

async function expectZip(download: Download, id: string) {
  expect(download.suggestedFilename()).toBe(`campaign_${id}.zip`);
  const bytes = fs.readFileSync(await download.path());
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
}

async function viewAndDownload(page: Page, count: number, id: string, message: string) {
  await act(page, count, 'View');
  const dialog = page.getByRole('dialog', { name: 'Campaign Details' });
  // The message, and the name made of its words (no name was given).
  const field = (label: string) =>
    dialog.locator('tr', { has: page.getByRole('rowheader', { name: label, exact: true }) });
  await field('Message').getByText(message).waitFor();
  await field('Campaign Name').getByText(message).waitFor();
  await dialog.getByText(`${count} recipients`).waitFor();
  await expect.poll(() => dialog.getByLabel('Recipients').innerText()).toContain(',');
  await shot(page, `campaigns-view-${count}`);
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await dialog.waitFor({ state: 'hidden' });

  const download = page.waitForEvent('download');
  await act(page, count, 'Download');
  await expectZip(await download, id);
}

describe('campaigns as a User', () => {
  it('lists its campaigns under My Campaigns, filters, views and downloads', async () => {
    const page = await t.page(user);
    await openCampaigns(page, 'My Campaigns');
    await row(page, COUNTS.userRejected).waitFor();
    await row(page, COUNTS.resellerForUser).waitFor();
    expect(await row(page, COUNTS.resellerReport).count()).toBe(0);
    // A User has no User filter.
    expect(await filters(page).getByLabel('User', { exact: true }).count()).toBe(0);
    const r = row(page, COUNTS.userRejected);
    await r.getByText('Submitted').waitFor();
    expect(await r.getByText(user.email).count()).toBeGreaterThan(0);
    // Made for it by its Reseller: Created By names the role, not the email above its scope.
    const forUser = row(page, COUNTS.resellerForUser);
    await forUser.getByRole('cell', { name: 'Reseller', exact: true }).waitFor();
    expect(await forUser.getByText(reseller.email).count()).toBe(0);
    await shot(page, 'campaigns-user');

    await filters(page).getByLabel('Status').selectOption('Completed');
    await page.getByText(ui.campaigns.empty).waitFor();
    await filters(page).getByRole('button', { name: 'Clear Filters' }).click();
    await row(page, COUNTS.userRejected).waitFor();
    expect(await filters(page).getByLabel('Status').inputValue()).toBe('');

    await viewAndDownload(page, COUNTS.userRejected, ids.userRejected, 'User campaign to reject');
    await page.context().close();
  });
});

describe('campaigns as a Reseller', () => {
  it('sees its scope, filters by user, views and downloads', async () => {
    const page = await t.page(reseller);
    await openCampaigns(page, 'Campaigns');
    await row(page, COUNTS.resellerReport).waitFor();
    await row(page, COUNTS.userCancel).waitFor();
    const userLabel = `${user.name} (${user.email})`;
    await pickSearchOption(filters(page), 'User', user.email, userLabel);
    await expect.poll(() => row(page, COUNTS.resellerReport).count()).toBe(0);
    await row(page, COUNTS.userCancel).waitFor();
    await pickSearchOption(filters(page), 'User', '', `${reseller.name} (Self)`);
    await row(page, COUNTS.resellerReport).waitFor();
    await expect.poll(() => row(page, COUNTS.userCancel).count()).toBe(0);
    await shot(page, 'campaigns-reseller');

    // A long list: the dialog shows the count and the detail's first 100 numbers, then pages
    // more in (500 at a time) as the list scrolls to its end.
    await act(page, COUNTS.resellerLarge, 'View');
    const dialog = page.getByRole('dialog', { name: 'Campaign Details' });
    await dialog.getByText(/Showing the first [\d,]+ of 2,500 recipients\./).waitFor();
    const box = dialog.getByLabel('Recipients');
    const shownNumbers = async () => (await box.innerText()).match(/\d{7,15}/g) ?? [];
    const expected = Array.from({ length: COUNTS.resellerLarge }, (_, i) =>
      String(9_700_000_000 + i),
    );
    expect((await shownNumbers()).slice(0, 100)).toEqual(expected.slice(0, 100));
    await shot(page, 'campaigns-view-large-first');
    const pages = page.waitForResponse((r) =>
      r.url().includes(`/api/campaigns/${ids.resellerLarge}/recipients`),
    );
    await box.scrollIntoViewIfNeeded();
    await box.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    expect((await pages).status()).toBe(200);
    await expect.poll(async () => (await shownNumbers()).length).toBeGreaterThanOrEqual(600);
    const shown = await shownNumbers();
    // Every number once, in order, with no gap between the detail's slice and the pages.
    expect(shown).toEqual(expected.slice(0, shown.length));
    // The count line follows what is shown (polled: another page may arrive meanwhile).
    await expect
      .poll(async () => {
        const n = (await shownNumbers()).length.toLocaleString('en-US');
        return dialog.getByText(`Showing the first ${n} of 2,500 recipients.`).count();
      })
      .toBe(1);
    await shot(page, 'campaigns-view-large-paged');
    // Scrolling on reaches the end of the list.
    await expect
      .poll(async () => {
        await box.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        return (await shownNumbers()).length;
      })
      .toBe(COUNTS.resellerLarge);
    expect(await shownNumbers()).toEqual(expected);
    await dialog.getByText('2,500 recipients', { exact: true }).waitFor();
    await dialog.getByText('End of recipients').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'hidden' });
    await viewAndDownload(
      page,
      COUNTS.resellerReport,
      ids.resellerReport,
      'Reseller campaign with a report',
    );
    // Not Admin: no status or report actions; a Submitted campaign may be cancelled.
    expect(await actionLabels(page, COUNTS.resellerReport)).toEqual([
      'View',
      'Download',
      'Request Cancellation',
      'Clone',
    ]);
    await page.context().close();
  });
});

describe('campaigns as the Admin', () => {
  it('rejects a campaign (refund), uploads a report, views and exports it', async () => {
    const page = await t.page();
    await openCampaigns(page, 'Campaigns');

    const before = await apiBalance(t.adminToken, user.email, TYPE);
    await act(page, COUNTS.userRejected, 'Change Status');
    const statusDialog = page.getByRole('dialog', { name: 'Change Status' });
    await statusDialog.getByLabel('Status').selectOption('Rejected');
    await statusDialog.getByRole('button', { name: 'Update' }).click();
    await page.getByText(ui.campaigns.statusUpdated('Rejected')).waitFor();
    await row(page, COUNTS.userRejected).getByText('Rejected').waitFor();
    expect(await apiBalance(t.adminToken, user.email, TYPE)).toBe(before + COUNTS.userRejected);

    const r = row(page, COUNTS.resellerReport);
    // Submitted, so awaiting approval: Approve and Reject beside Change Status.
    expect(await actionLabels(page, COUNTS.resellerReport)).toEqual([
      'View',
      'Download',
      'Approve',
      'Reject',
      'Change Status',
      'Upload Report',
      'Clone',
    ]);
    await act(page, COUNTS.resellerReport, 'Upload Report');
    const upload = page.getByRole('dialog', { name: 'Upload Report' });
    await upload.getByRole('button', { name: 'Upload' }).click();
    await upload.getByText(ui.campaigns.selectReportFile).waitFor();
    const lines = ['Mobile,Status'];
    for (let i = 0; i < COUNTS.resellerReport; i++) {
      lines.push(`${9_300_000_000 + i},${i < 10 ? 'Delivered' : 'Failed'}`);
    }
    lines.push('9999999999,Delivered'); // not a recipient
    await upload.getByLabel('Report File (.csv)').setInputFiles({
      name: 'report.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(lines.join('\n')),
    });
    await upload.getByRole('button', { name: 'Upload' }).click();
    await page.getByText(ui.campaigns.reportUploaded).waitFor();
    await page.getByText(/9999999999/).waitFor();
    await r.getByText('Report Generated').waitFor();
    await shot(page, 'campaigns-admin');

    await act(page, COUNTS.resellerReport, 'View Report');
    const report = page.getByRole('dialog', { name: /Delivery Report/ });
    const summary = report.getByLabel('Report summary');
    await expect
      .poll(() => summary.innerText())
      .toMatch(/10\s*Delivered\s*4\s*Failed\s*14\s*Total/);
    const table = report.getByRole('table', { name: 'Delivery report' });
    await expect.poll(() => table.getByRole('row').count()).toBe(COUNTS.resellerReport + 1);
    await table.getByText('Delivered').first().waitFor();
    await shot(page, 'campaigns-admin-report');
    const download = page.waitForEvent('download');
    await report.getByRole('button', { name: 'Export Report to CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`campaign_${ids.resellerReport}_report.csv`);
    const csv = fs.readFileSync(await file.path(), 'utf8');
    expect(csv).toContain('9300000000');
    await page.context().close();
  });
});

describe('a cancellation request', () => {
  it('is sent by the owner after a confirmation', async () => {
    const page = await t.page(user);
    await openCampaigns(page, 'My Campaigns');
    const r = row(page, COUNTS.userCancel);
    await act(page, COUNTS.userCancel, 'Request Cancellation');
    const confirm = page.getByRole('dialog').filter({ hasText: 'Ask the administrator' });
    await confirm.getByRole('button', { name: 'Request Cancellation' }).click();
    await page.getByText(ui.campaigns.statusUpdated('Cancellation Requested')).waitFor();
    await r.getByText('Cancellation Requested').waitFor();
    expect(await actionLabels(page, COUNTS.userCancel)).toEqual(['View', 'Download', 'Clone']);
    const userToken = (await apiLogin(user.email, user.password)).token;
    const detail = await apiJson<{ status: string }>(
      'GET',
      `/api/campaigns/${ids.userCancel}`,
      userToken,
    );
    expect(detail.status).toBe('Cancellation Requested');
    await page.context().close();
  });
});

describe('the profile', () => {
  it("lists the owner's recent campaigns with Completed green and others yellow", async () => {
    const page = await t.page(user);
    await page.getByRole('navigation').getByRole('link', { name: 'My Profile' }).click();
    const table = page.getByRole('table', { name: 'Recent Campaigns' });
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual([
      'Created At',
      'Type',
      'Recipients',
      'Status',
    ]);
    const rejected = table.getByText('Rejected', { exact: true });
    expect(await rejected.getAttribute('class')).toContain('bg-warning');
    await table.getByText('Cancellation Requested').waitFor();
    await shot(page, 'profile-recent-campaigns');
    await page.context().close();
  });
});
