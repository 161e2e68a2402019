import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { server as msg, ui } from '@herald/contract';
import { apiCreateUser, apiJson, apiLogin, journey, shot, shotWidths } from './support/browser.js';
import { pickSearchOption } from './support/search-select.js';

/**
 * The Suppression List (docs/product.md, Opt-outs): a user adds, searches, imports, exports and
 * removes numbers; the Create Campaign form says how many pasted numbers are suppressed; the
 * Admin sees everyone's entries with their owner and filters by owner.
 */

type Account = { email: string; password: string; name: string; id: string };
let user: Account;
let other: Account;
const s = ui.suppressions;

const t = journey(async (adminToken) => {
  user = await apiCreateUser(adminToken, 'User', 'Optout User');
  other = await apiCreateUser(adminToken, 'User', 'Optout Other');
  const otherToken = (await apiLogin(other.email, other.password)).token;
  await apiJson('POST', '/api/suppressions', otherToken, { phone: '9177700001' });
});

async function openList(page: Page) {
  await page.goto('/suppressions');
  await page.getByRole('heading', { name: s.title }).waitFor();
}

const table = (page: Page) => page.getByRole('table', { name: s.title });
const row = (page: Page, phone: string) => table(page).getByRole('row').filter({ hasText: phone });

describe('Suppression List journey', () => {
  it('a user adds, searches, imports, exports and removes numbers', async () => {
    const page = await t.page(user);
    await openList(page);
    await page.getByText(s.empty).waitFor();

    // A number as a phone shows it is stored as digits; a short one is refused on the form.
    await page.getByLabel(s.phoneLabel).fill('123');
    await page.getByRole('button', { name: s.addButton }).click();
    await page.getByText(msg.suppressionPhoneInvalid).waitFor();
    await page.getByLabel(s.phoneLabel).fill('+91 98888 00001');
    await page.getByRole('button', { name: s.addButton }).click();
    await page.getByText(msg.suppressionAdded('919888800001')).waitFor();
    await row(page, '919888800001').waitFor();
    // Again: the server's 409 says it is listed already.
    await page.getByLabel(s.phoneLabel).fill('919888800001');
    await page.getByRole('button', { name: s.addButton }).click();
    await page.getByText(msg.suppressionExists('919888800001')).waitFor();

    // A CSV as a spreadsheet writes it: BOM, CRLF, quoted cells, a header, one bad row.
    const csv = '\uFEFF"Phone"\r\n"9188800002"\r\n"9188800003"\r\n"not a number"\r\n';
    await page
      .getByLabel(s.importLabel)
      .setInputFiles({ name: 'numbers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: s.importButton, exact: true }).click();
    await page.getByText(msg.suppressionImportDone(2, 0, 1)).waitFor();
    await row(page, '9188800003').waitFor();
    await expect(table(page).getByRole('row').count()).resolves.toBe(4);

    await page.getByLabel(s.searchLabel).fill('800002');
    await expect.poll(() => table(page).getByRole('row').count()).toBe(2);
    await row(page, '9188800002').waitFor();
    await page.getByLabel(s.searchLabel).fill('');
    await expect.poll(() => table(page).getByRole('row').count()).toBe(4);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: s.exportButton }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(s.exportFile);
    const lines = fs
      .readFileSync((await file.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('phone,source,created_at,owner_email');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual(['9188800002', '9188800003', '919888800001']);

    await row(page, '9188800003').getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('button', { name: s.removeLabel('9188800003') }).click();
    const dialog = page.getByRole('dialog', { name: s.removeTitle });
    await dialog.getByText(s.removeConfirm('9188800003')).waitFor();
    await shot(page, 'suppressions-remove');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row(page, '9188800003').count()).toBe(0);
    // Another user's entry never shows here.
    await expect(row(page, '9177700001').count()).resolves.toBe(0);

    await shotWidths(page, 'suppressions-user');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(
      page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).resolves.toBeLessThanOrEqual(0);
  });

  it('the Create Campaign form says how many pasted numbers are suppressed', async () => {
    const page = await t.page(user);
    await page.goto('/campaigns');
    const numbers = page.getByLabel('Numbers', { exact: true });
    await numbers.fill('+91 98888 00001, 9188800002, 9000000001, 9177700001');
    const line = page.getByTestId('campaign-suppressed');
    await line.waitFor();
    // 9177700001 is on another account's list, not this owner's.
    await expect(line.textContent()).resolves.toBe(ui.campaigns.suppressedLine(2));
    await shot(page, 'suppressions-campaign-form');
    await numbers.fill('9000000001');
    await line.waitFor({ state: 'detached' });
  });

  it('the Admin sees everyone’s entries with their owner, and filters by owner', async () => {
    const page = await t.page();
    await openList(page);
    await table(page).getByRole('columnheader', { name: s.columns.owner }).waitFor();
    await row(page, '9177700001').getByText(other.email).waitFor();
    await row(page, '919888800001').getByText(user.email).waitFor();
    await pickSearchOption(page, s.ownerFilterLabel, other.name, `${other.name} (${other.email})`);
    await expect.poll(() => row(page, '919888800001').count()).toBe(0);
    await row(page, '9177700001').waitFor();
    await shotWidths(page, 'suppressions-admin');
  });
});
