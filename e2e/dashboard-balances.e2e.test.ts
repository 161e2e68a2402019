import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Role } from '@herald/contract';
import {
  adminCredentials,
  apiCreateCampaign,
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  journey,
  shot,
} from './support/browser.js';

/**
 * Credit figures on each role's dashboard are per credit type, never summed over types
 * (docs/product.md, Dashboards and analytics): the Admin's credits sent this month, a reseller's
 * own balances and its scope's campaign spending, a User's balances. Types at 0 are left out
 * and the card says so. Shots at 1366 and 390 px wide.
 */
const N = 'Normal Message - domestic';
const D = 'With DP - domestic';
const creds = {} as Record<Role, { email: string; password: string }>;

const give = (token: string, to: string, creditType: string, count: number) =>
  apiJson('POST', '/api/credits', token, { to, creditType, count, rate: 0.1, type: 'Added' });

const t = journey(async (admin) => {
  creds.Admin = adminCredentials();
  creds.Reseller = await apiCreateUser(admin, 'Reseller', 'Balance Reseller');
  const reseller = (await apiLogin(creds.Reseller.email, creds.Reseller.password)).token;
  creds['Sub-Reseller'] = await apiCreateUser(reseller, 'Sub-Reseller', 'Balance Sub');
  const sub = (await apiLogin(creds['Sub-Reseller'].email, creds['Sub-Reseller'].password)).token;
  creds.User = await apiCreateUser(sub, 'User', 'Balance User');
  await apiGiveCredits(admin, creds.Reseller.email, N, 500);
  await apiGiveCredits(admin, creds.Reseller.email, D, 40);
  await give(reseller, creds['Sub-Reseller'].email, N, 100);
  await give(sub, creds.User.email, N, 30);
  await give(reseller, creds.User.email, D, 10);
  // The User spends 3 N on a campaign to three numbers.
  const user = (await apiLogin(creds.User.email, creds.User.password)).token;
  await apiCreateCampaign(user, {
    to: '9720000001,9720000002,9720000003',
    creditType: N,
    message: 'Hi',
  });
});

/** The rows of a per-type card: credit type → count as shown. */
async function perType(page: Page, id: string): Promise<Record<string, string>> {
  await page.getByTestId(`dashboard-${id}-value`).waitFor();
  const rows = await page
    .getByTestId(`dashboard-${id}-type`)
    .evaluateAll((els) => els.map((el) => Array.from(el.children, (c) => c.textContent ?? '')));
  return Object.fromEntries(rows.map(([type, count]) => [type, count]));
}

async function shots(page: Page, role: Role) {
  const name = role.toLowerCase().replace(/[^a-z]+/g, '-');
  await shot(page, `dashboard-balances-${name}-1366`);
  await page.setViewportSize({ width: 390, height: 800 });
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(390);
  await shot(page, `dashboard-balances-${name}-390`);
}

async function open(role: Role) {
  const page = await t.page(creds[role]);
  await page.setViewportSize({ width: 1366, height: 800 });
  return page;
}

describe('dashboards show credit figures per type', () => {
  it('Admin: Credits Sent (Month) lists each minted type', async () => {
    const page = await open('Admin');
    // The e2e database is shared: other journeys mint too, so at least ours.
    const sent = await perType(page, 'credits-sent-month');
    expect(Number(sent[N]?.replace(/,/g, ''))).toBeGreaterThanOrEqual(500);
    expect(Number(sent[D]?.replace(/,/g, ''))).toBeGreaterThanOrEqual(40);
    await shots(page, 'Admin');
    await page.context().close();
  });

  it('Reseller: its own balances per type; Credits Used is what its subtree spent', async () => {
    const page = await open('Reseller');
    // 500 − 100 given to its Sub-Reseller; 40 − 10 given to the User.
    expect(await perType(page, 'credits-remaining')).toEqual({ [N]: '400', [D]: '30' });
    // The User's campaign (3 N); the credits it gave away are not "used".
    expect(await perType(page, 'credits-used-month')).toEqual({ [N]: '3' });
    await page.getByTestId('dashboard-credits-remaining').getByText('Other types: 0').waitFor();
    await shots(page, 'Reseller');
    await page.context().close();
  });

  it('Sub-Reseller: its own balances per type and its subtree spending', async () => {
    const page = await open('Sub-Reseller');
    expect(await perType(page, 'credits-remaining')).toEqual({ [N]: '70' });
    expect(await perType(page, 'credits-used-month')).toEqual({ [N]: '3' });
    await shots(page, 'Sub-Reseller');
    await page.context().close();
  });

  it('User: Credits Remaining per type, the types at 0 left out', async () => {
    const page = await open('User');
    expect(await perType(page, 'credits-remaining')).toEqual({ [N]: '27', [D]: '10' });
    await page.getByTestId('dashboard-credits-remaining').getByText('Other types: 0').waitFor();
    await shots(page, 'User');
    await page.context().close();
  });
});
