import { describe, expect, it } from 'vitest';
import { BALANCES_SCREEN_PAGE, CREDIT_TYPES, UNAUTHORIZED_ACCESS } from '@herald/contract';
import {
  apiCreateCampaign,
  apiCreateUser,
  apiGiveCredits,
  apiLogin,
  baseUrl,
  campaignRow,
  journey,
  shot,
} from './support/browser.js';

const TYPE = 'Normal Message - domestic';
const COUNT = 21;
/** A report longer than two pages (500 rows each), to scroll through. */
const BIG = 1200;
const GIVEN = 1300;
let user: { email: string; password: string; name: string };

async function uploadReport(token: string, id: string, lines: string[]) {
  const form = new FormData();
  form.append('reportFile', new Blob([lines.join('\n')], { type: 'text/csv' }), 'report.csv');
  const res = await fetch(`${baseUrl()}/api/campaigns/${id}/upload-report`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`upload-report: ${res.status} ${await res.text()}`);
}

const t = journey(async (adminToken) => {
  user = await apiCreateUser(adminToken, 'User', 'Report User');
  const userToken = (await apiLogin(user.email, user.password)).token;
  await apiGiveCredits(adminToken, user.email, TYPE, GIVEN);
  const small = await apiCreateCampaign(userToken, {
    creditType: TYPE,
    message: 'Campaign for the reports screen',
    to: Array.from({ length: COUNT }, (_, i) => String(9_500_000_000 + i)).join(','),
  });
  // 20 delivered, 1 failed.
  const csv = ['number,status'];
  for (let i = 0; i < COUNT; i++) csv.push(`${9_500_000_000 + i},${i ? 'Delivered' : 'Failed'}`);
  await uploadReport(adminToken, small, csv);

  const big = await apiCreateCampaign(userToken, {
    creditType: TYPE,
    message: 'A long report',
    to: Array.from({ length: BIG }, (_, i) => String(9_600_000_000 + i)).join(','),
  });
  // Every 7th failed: 172 failed, 1,028 delivered.
  const bigCsv = ['phone,status'];
  for (let i = 0; i < BIG; i++) {
    bigCsv.push(`${9_600_000_000 + i},${i % 7 ? 'Delivered' : 'Failed'}`);
  }
  await uploadReport(adminToken, big, bigCsv);
});

describe('reports', () => {
  it('shows the Admin balances, transactions and campaign reports in three tabs', async () => {
    const page = await t.page();
    await page.getByRole('navigation').getByRole('link', { name: 'Reports' }).click();
    await page.waitForURL('**/reports');
    await page.getByRole('heading', { name: 'Reports' }).waitFor();

    const balances = page.getByRole('table', { name: 'Credit Balances' });
    const balanceRow = balances.getByRole('row').filter({ hasText: user.email });
    await balanceRow.waitFor();
    expect(await balanceRow.innerText()).toContain(TYPE);
    expect(await balanceRow.innerText()).toContain(String(GIVEN - COUNT - BIG));
    await shot(page, 'reports-balances');

    await page.getByRole('tab', { name: 'Credit Transactions' }).click();
    const history = page.getByRole('table', { name: 'Transaction history' });
    await history.getByText(user.email).first().waitFor();
    await shot(page, 'reports-transactions');

    await page.getByRole('tab', { name: 'Campaign Reports' }).click();
    const reports = page.getByRole('table', { name: 'Campaign Reports' });
    const row = campaignRow(reports, user.email, COUNT);
    await row.getByText('Report Generated').waitFor();
    await shot(page, 'reports-campaigns');
    await row.getByRole('button', { name: 'Actions' }).click();
    await page
      .locator('.dropdown-menu.show')
      .getByRole('button', { name: 'View Report', exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: /Delivery Report/ });
    await expect
      .poll(() => dialog.getByLabel('Report summary').innerText())
      .toMatch(/20\s*Delivered\s*1\s*Failed\s*21\s*Total/);
    await dialog.getByRole('button', { name: 'Export Report to CSV' }).waitFor();
    await shot(page, 'reports-campaign-report');
    await page.context().close();
  });

  it('scrolls a long report page by page, keeping only the rows in view', async () => {
    const page = await t.page();
    await page.goto('/reports');
    await page.getByRole('tab', { name: 'Campaign Reports' }).click();
    const reports = page.getByRole('table', { name: 'Campaign Reports' });
    const row = campaignRow(reports, user.email, BIG);
    await row.getByRole('button', { name: 'Actions' }).click();
    await page
      .locator('.dropdown-menu.show')
      .getByRole('button', { name: 'View Report', exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: /Delivery Report/ });
    await expect
      .poll(() => dialog.getByLabel('Report summary').innerText())
      .toMatch(/1,028\s*Delivered\s*172\s*Failed\s*1,200\s*Total/);
    const list = dialog.getByTestId('report-entries');
    const table = dialog.getByRole('table', { name: 'Delivery report' });
    await table.getByText('9600000000').waitFor();
    // Scroll to the end until every page has loaded.
    await expect
      .poll(async () => {
        await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        return dialog.getByText('End of report').count();
      })
      .toBe(1);
    // The last page may have arrived after the last scroll: scroll to the new end.
    await expect
      .poll(async () => {
        await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        return table.getByText(String(9_600_000_000 + BIG - 1)).count();
      })
      .toBe(1);
    expect(await table.getByRole('row').count()).toBeLessThan(80);
    expect(await table.getAttribute('aria-rowcount')).toBe(String(BIG + 1));
    await shot(page, 'reports-long-report');
    await page.context().close();
  });

  it('loads more Credit Balances as the Admin scrolls, each user once', async () => {
    // More users than a page holds, sorting after everyone else by email.
    const extra = BALANCES_SCREEN_PAGE + 5;
    const made: { email: string }[] = [];
    for (let i = 0; i < extra; i += 5) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(5, extra - i) }, (_, k) =>
          apiCreateUser(t.adminToken, 'User', `Zz Balance ${String(i + k).padStart(2, '0')}`),
        ),
      );
      await Promise.all(
        batch.map((u, k) => apiGiveCredits(t.adminToken, u.email, TYPE, i + k + 1)),
      );
      made.push(...batch);
    }
    const page = await t.page();
    await page.goto('/reports');
    const table = page.getByRole('table', { name: 'Credit Balances' });
    await table.getByRole('row').nth(1).waitFor();
    const zz = table.getByRole('row').filter({ hasText: 'zz.balance.' });
    // The first page holds at most BALANCES_SCREEN_PAGE users: some of these are not shown yet.
    expect(await zz.count()).toBeLessThan(extra);
    expect(await table.getByRole('row').count()).toBeLessThanOrEqual(
      BALANCES_SCREEN_PAGE * CREDIT_TYPES.length + 1,
    );
    await expect
      .poll(async () => {
        await page.mouse.wheel(0, 20_000);
        return (await page.getByText('End of balances').count()) + (await zz.count());
      })
      .toBe(extra + 1);
    const last = made.at(-1)!;
    const lastRow = table.getByRole('row').filter({ hasText: last.email });
    expect(await lastRow.count()).toBe(1);
    expect(await lastRow.innerText()).toContain(String(extra));
    for (const u of made) {
      expect(await table.getByRole('row').filter({ hasText: u.email }).count(), u.email).toBe(1);
    }
    await shot(page, 'reports-balances-more');
    await page.context().close();
  });

  it('sends a User who opens /reports to /unauthorized', async () => {
    const page = await t.page(user);
    await page.goto('/reports');
    await page.waitForURL('**/unauthorized');
    await page.getByText(UNAUTHORIZED_ACCESS).first().waitFor();
    await page.context().close();
  });
});
