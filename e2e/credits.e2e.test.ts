import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { ui } from '@herald/contract';
import { apiCreateUser, apiLogin, journey, shot } from './support/browser.js';
import { pickSearchOption } from './support/search-select.js';

let reseller: { email: string; password: string; name: string };
let user: { email: string; password: string; name: string };

const t = journey(async (adminToken) => {
  reseller = await apiCreateUser(adminToken, 'Reseller', 'Credit Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  user = await apiCreateUser(resellerToken, 'User', 'Credit User');
});

async function submitCredit(
  page: Page,
  f: { user: string; creditType: string; type: 'Added' | 'Removed'; count: string; rate: string },
) {
  await pickSearchOption(page, 'User', f.user.split(' (')[0]!, f.user);
  await page.getByLabel('Credit Type').selectOption(f.creditType);
  await page.getByLabel('Type', { exact: true }).selectOption(f.type);
  await page.getByLabel('Count').fill(f.count);
  await page.getByLabel('Rate (₹)').fill(f.rate);
  await page.getByRole('button', { name: 'Submit' }).click();
}

describe('credits', () => {
  it('Admin adds credits to a reseller and sees them in Recent Transactions', async () => {
    const page = await t.page();
    await page.getByRole('navigation').getByRole('link', { name: 'Credit Management' }).click();
    await page.waitForURL('**/credits');
    await submitCredit(page, {
      user: `${reseller.name} (${reseller.email})`,
      creditType: 'With DP - domestic',
      type: 'Added',
      count: '100',
      rate: '0.25',
    });
    await page.getByText(ui.credits.transactionDone).waitFor();
    await page.getByText('Recent Transactions').waitFor();
    const row = page.getByRole('row').filter({ hasText: reseller.email }).first();
    await row.getByText('Added').waitFor();
    await expect.poll(() => page.getByText(/Available credits: 100\b/).count()).toBe(1);
    await shot(page, 'credits-admin');
    await page.context().close();
  });

  it('a Reseller transfers to its user, and is refused past its balance', async () => {
    const page = await t.page(reseller);
    await page.getByRole('navigation').getByRole('link', { name: 'Credit Management' }).click();
    await page.waitForURL('**/reseller-credits');
    await submitCredit(page, {
      user: `${user.name} (${user.email})`,
      creditType: 'With DP - domestic',
      type: 'Added',
      count: '30',
      rate: '0.50',
    });
    await page.getByText(ui.credits.transactionDone).waitFor();
    await expect.poll(() => page.getByText(/Your available credits: 70\b/).count()).toBe(1);
    await page.getByText(`Transfer to ${user.email}`).first().waitFor();

    await submitCredit(page, {
      user: `${user.name} (${user.email})`,
      creditType: 'With DP - domestic',
      type: 'Added',
      count: '1000',
      rate: '0.50',
    });
    await page.getByText('Insufficient credits for this message type.').waitFor();
    await shot(page, 'credits-reseller');
    await page.context().close();
  });
});

describe('empty states', () => {
  it('a new Sub-Reseller sees the empty notices on both credit screens', async () => {
    const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
    const sub = await apiCreateUser(resellerToken, 'Sub-Reseller', 'Empty Sub');
    const page = await t.page(sub);
    await page.getByRole('navigation').getByRole('link', { name: 'Credit Management' }).click();
    await page.waitForURL('**/reseller-credits');
    await page.getByText(ui.credits.noTransactions).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Transaction History' }).click();
    await page.getByText(ui.history.empty).waitFor();
    expect(await page.getByText('Your Remaining Credits').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Export to Excel' }).isDisabled()).toBe(true);
    await page.context().close();
  });
});

describe('transaction history', () => {
  it('shows a Reseller the entries of its scope with its own remaining credits', async () => {
    const page = await t.page(reseller);
    await page.goto('/history');
    await page.getByText('Your Remaining Credits').waitFor();
    const table = page.getByRole('table');
    await table.getByText(`Transfer to ${user.email}`).waitFor();
    await table.getByText(user.email).first().waitFor();
    await page.context().close();
  });

  it('shows a User its remaining credits, filters, clears and exports', async () => {
    const page = await t.page(user);
    await page.getByRole('navigation').getByRole('link', { name: 'Transaction History' }).click();
    await page.getByRole('heading', { name: 'Transaction History' }).waitFor();
    await page.getByText('Your Remaining Credits').waitFor();
    const table = page.getByRole('table');
    await table.getByText('₹15.00').waitFor(); // 30 × ₹0.50
    await shot(page, 'history-user');

    await page.getByLabel('Transaction Type').selectOption('Removed');
    await page.getByText(ui.history.empty).waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await table.getByText('₹15.00').waitFor();
    expect(await page.getByLabel('Transaction Type').inputValue()).toBe('');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export to Excel' }).click();
    const file = await (await download).path();
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
    await page.context().close();
  });

  it('shows the Admin every entry, no remaining-credits card, and filters by user', async () => {
    const page = await t.page();
    await page.goto('/history');
    await page.getByRole('heading', { name: 'Transaction History' }).waitFor();
    await page.getByRole('table').getByText(user.email).first().waitFor();
    expect(await page.getByText('Your Remaining Credits').count()).toBe(0);
    await pickSearchOption(page, 'User Email', user.email, `${user.name} (${user.email})`);
    await expect
      .poll(async () => {
        const emails = await page.getByRole('table').locator('tbody tr').allInnerTexts();
        return emails.length > 0 && emails.every((r) => r.includes(user.email));
      })
      .toBe(true);
    await shot(page, 'history-admin');
    await page.context().close();
  });
});
