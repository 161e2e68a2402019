import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  adminCredentials,
  apiCreateCampaign,
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  journey,
  loginUi,
  newPage,
  shot,
} from './support/browser.js';

/**
 * Advanced Analytics: the Admin and a Reseller see five cards and four
 * charts (300 high) filled with their scope's figures, fetched by five calls together; the date
 * range selector asks again; the page breaks no CSP rule; Sub-Reseller and User are sent to
 * /unauthorized. The e2e database is shared, so the Admin's figures are only checked to be
 * there; the fresh Reseller's are exact.
 */
const N = 'Normal Message - domestic';
type Creds = { email: string; password: string; name: string };
let reseller: Creds;
let sub: Creds;
let user: Creds;

const t = journey(async (adminToken) => {
  reseller = await apiCreateUser(adminToken, 'Reseller', `Analytics Reseller ${Date.now() % 1e5}`);
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  sub = await apiCreateUser(resellerToken, 'Sub-Reseller', 'Analytics Sub');
  user = await apiCreateUser(resellerToken, 'User', 'Analytics User');
  // Reseller: Added 500 (Admin), then Removed 120 to its user, who gets Added 120.
  await apiGiveCredits(adminToken, reseller.email, N, 500);
  await apiJson('POST', '/api/credits', resellerToken, {
    to: user.email,
    creditType: N,
    count: 120,
    rate: 0.1,
    type: 'Added',
  });
  // Its user's campaign to one number spends 1 credit (Used 1; the 120 are Distributed).
  const userToken = (await apiLogin(user.email, user.password)).token;
  await apiCreateCampaign(userToken, { to: '9876543210', creditType: N, message: 'Hello' });
});

interface Watched {
  page: Page;
  calls: string[];
  /** Analytics calls answered so far. */
  done: () => number;
  csp: () => Promise<string[]>;
}

async function openAnalytics(creds: { email: string; password: string }): Promise<Watched> {
  const page = await newPage(t.browser);
  const calls: string[] = [];
  let answered = 0;
  const isAnalytics = (u: string) => new URL(u).pathname.startsWith('/api/analytics');
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (isAnalytics(r.url())) calls.push(url.pathname + url.search);
  });
  page.on('requestfinished', (r) => {
    if (isAnalytics(r.url())) answered++;
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const consoleCsp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) consoleCsp.push(m.text());
  });
  await loginUi(page, creds.email, creds.password);
  await page.goto('/analytics');
  await page.getByRole('heading', { name: 'Advanced Analytics' }).waitFor();
  const csp = async () => [
    ...consoleCsp,
    ...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)),
  ];
  return { page, calls, done: () => answered, csp };
}

async function chartsDrawn(page: Page) {
  for (const id of ['credit-trend', 'credit-types', 'top-users', 'campaign-types']) {
    await page.getByTestId(`analytics-${id}`).locator('svg.recharts-surface').first().waitFor();
  }
  const heights = await page
    .locator('.recharts-responsive-container')
    .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
  expect(heights).toEqual([300, 300, 300, 300]);
  for (const title of [
    'Credit Usage Trend',
    'Credit Types Used',
    'Top Users by Credit Usage',
    'Campaigns by Type',
  ]) {
    await page.getByRole('heading', { name: title }).waitFor();
  }
}

/** Lets the charts' entry animations end before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(2_000);

const card = (page: Page, id: string) => page.getByTestId(`analytics-${id}-value`).innerText();

describe('Advanced Analytics screen', () => {
  it('Admin: cards and four charts with data, five calls per range, no CSP violation', async () => {
    const { page, calls, done, csp } = await openAnalytics(adminCredentials());
    await chartsDrawn(page);
    await page
      .getByTestId('analytics-credit-trend')
      .locator('.recharts-bar-rectangle')
      .first()
      .waitFor();
    await page
      .getByTestId('analytics-campaign-types')
      .locator('.recharts-bar-rectangle')
      .first()
      .waitFor();
    await page
      .getByTestId('analytics-credit-types')
      .locator('.recharts-pie-sector')
      .first()
      .waitFor();
    await page
      .getByTestId('analytics-top-users')
      .locator('.recharts-bar-rectangle')
      .first()
      .waitFor();
    expect(Number((await card(page, 'credits-added')).replace(/,/g, ''))).toBeGreaterThan(0);
    expect(calls.sort()).toEqual([
      '/api/analytics/campaign-types?range=30',
      '/api/analytics/credit-types?range=30',
      '/api/analytics/credits-trend?range=30',
      '/api/analytics/top-users?range=30',
      '/api/analytics?range=30',
    ]);
    await settle(page);
    await shot(page, 'analytics-admin');

    calls.length = 0;
    const before = done();
    await page.getByLabel('Date range').selectOption('all');
    await expect.poll(() => calls.length).toBe(5);
    expect(calls.every((c) => c.endsWith('range=all'))).toBe(true);
    await expect.poll(done).toBe(before + 5);
    await settle(page);
    await shot(page, 'analytics-admin-all-time');
    expect(await csp()).toEqual([]);
    await page.context().close();
  });

  it("Reseller: its subtree's figures", async () => {
    const { page, csp } = await openAnalytics(reseller);
    await chartsDrawn(page);
    await expect.poll(() => card(page, 'credits-added')).toBe('620');
    expect(await card(page, 'total-users')).toBe('2');
    // Used: its user's campaign (1); the 120 given to that user are distributed, not used.
    expect(await card(page, 'credits-used')).toBe('1');
    expect(await card(page, 'credits-distributed')).toBe('120');
    expect(await card(page, 'total-campaigns')).toBe('1');
    const top = page.getByTestId('analytics-top-users');
    await top.locator('.recharts-bar-rectangle').first().waitFor();
    // The axis label wraps the name over two lines: compare without spaces.
    const label = async () => ((await top.textContent()) ?? '').replace(/\s/g, '');
    // Ranked by campaign spending: the user who sent, not the Reseller who only gave credits.
    await expect.poll(label).toContain(user.name.replace(/\s/g, ''));
    expect(await label()).not.toContain(reseller.name.replace(/\s/g, ''));
    await page
      .getByTestId('analytics-credit-types')
      .locator('.recharts-pie-sector')
      .first()
      .waitFor();
    await settle(page);
    await shot(page, 'analytics-reseller');
    // The five cards at desktop and phone widths; the page does not scroll sideways.
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await settle(page);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(width);
      await shot(page, `analytics-reseller-${width}`);
    }
    expect(await csp()).toEqual([]);
    await page.context().close();
  });

  it('Sub-Reseller and User are sent to /unauthorized', async () => {
    for (const creds of [sub, user]) {
      const page = await t.page(creds);
      await page.goto('/analytics');
      await page.waitForURL('**/unauthorized');
      await page.context().close();
    }
  });
});
