import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_CSV_COLUMNS,
  AUDIT_LOG_PAGE_DEFAULT,
  auditMessages,
  auditUi as a,
} from '@herald/contract';
import {
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  journey,
  shotWidths,
} from './support/browser.js';

/**
 * The Audit Log: the Admin sees the entries real actions wrote, filters, loads more, exports CSV;
 * a Reseller sees only its subtree's entries, without the Admin's IP. The e2e database is shared
 * by every journey file, so each check filters down to this file's own entries.
 */

let reseller: Awaited<ReturnType<typeof apiCreateUser>>;
let child: Awaited<ReturnType<typeof apiCreateUser>>;
let other: Awaited<ReturnType<typeof apiCreateUser>>;
const TYPE = 'Normal Message - domestic';
/** Numbers the Admin puts on its suppression list: more than a page of entries. */
const PREFIX = '9155512';
const SUPPRESSED = AUDIT_LOG_PAGE_DEFAULT + 10;
/** How the server sees the journey's own requests. */
const LOOPBACK = /127\.0\.0\.1/;

const t = journey(async (adminToken) => {
  reseller = await apiCreateUser(adminToken, 'Reseller', 'Audit Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  child = await apiCreateUser(resellerToken, 'User', 'Audit Child');
  other = await apiCreateUser(adminToken, 'Reseller', 'Audit Other');
  const otherToken = (await apiLogin(other.email, other.password)).token;
  for (let i = 0; i < SUPPRESSED; i++) {
    const phone = `${PREFIX}${String(i).padStart(3, '0')}`;
    await apiJson('POST', '/api/suppressions', adminToken, { phone });
  }
  await apiGiveCredits(adminToken, reseller.email, TYPE, 100);
  // The child's balance: 0 → 25 by its Reseller, then 25 → 30 by the Admin.
  await apiGiveCredits(resellerToken, child.email, TYPE, 25);
  await apiGiveCredits(adminToken, child.email, TYPE, 5);
  await apiJson('POST', '/api/suppressions', otherToken, { phone: '9155513000' });
});

const table = (page: Page) => page.getByRole('table', { name: a.title });
const bodyRows = (page: Page) => table(page).locator('tbody tr');

describe('the Audit Log', () => {
  it('shows the Admin the entries, filters, loads more and exports CSV', async () => {
    const page = await t.page();
    await page.getByRole('link', { name: 'Audit Log' }).click();
    await page.getByRole('heading', { name: a.title, level: 1 }).waitFor();
    // The Admin's own credits to the child, with where it came from.
    const toChild = bodyRows(page)
      .filter({ hasText: 'credits.add' })
      .filter({ hasText: child.email })
      .first();
    await toChild.waitFor();
    expect(await toChild.textContent()).toMatch(LOOPBACK);
    await shotWidths(page, 'audit-log-admin');

    // More than a page: Load more as the end scrolls into view.
    await page.getByLabel(a.targetLabel, { exact: true }).fill(PREFIX);
    // The filter is debounced, and a spinner takes the table's place while the new page comes
    // (no rows, so "every row" would hold): wait for rows that all match.
    const allSuppressed = async () => {
      const rows = await bodyRows(page).allTextContents();
      return rows.length > 0 && rows.every((row) => row.includes(PREFIX));
    };
    await expect.poll(allSuppressed).toBe(true);
    expect(await bodyRows(page).count()).toBe(AUDIT_LOG_PAGE_DEFAULT);
    await bodyRows(page).last().scrollIntoViewIfNeeded();
    await page.getByText('End of the audit log').waitFor();
    expect(await bodyRows(page).count()).toBe(SUPPRESSED);
    await page.getByLabel(a.targetLabel, { exact: true }).fill('');

    // The Reseller's credits to the child, and its details.
    await page.getByLabel(a.actorLabel).fill(reseller.email);
    await page.getByLabel(a.actionLabel).selectOption('credits');
    await expect.poll(() => bodyRows(page).count()).toBe(1);
    await bodyRows(page)
      .first()
      .getByRole('button', { name: /^Details/ })
      .click();
    const dialog = page.getByRole('dialog', { name: a.detailsTitle });
    await dialog.getByText('balance: 0 → 25').waitFor();
    await dialog.getByRole('button', { name: a.close }).last().click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByLabel(a.actionLabel).selectOption('credits.add');
    await expect.poll(() => bodyRows(page).count()).toBe(1);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: a.exportCsv }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await file.path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(child.email);
    await page.context().close();
  });

  it("shows a Reseller only its subtree's entries, hiding the Admin's origin", async () => {
    const page = await t.page(reseller);
    await page.getByRole('link', { name: 'Audit Log' }).click();
    await page.getByLabel(a.actionLabel).selectOption('credits');
    // Newest first: the Admin's 5 to the child, the Reseller's 25, the Admin's 100 to it.
    await expect.poll(() => bodyRows(page).count()).toBe(3);
    const rows = await bodyRows(page).allTextContents();
    expect(rows[0]).toContain(child.email);
    expect(rows[0]).toContain(a.hidden);
    expect(rows[0]).not.toMatch(LOOPBACK);
    expect(rows[1]).toContain(reseller.email);
    expect(rows[1]).toMatch(LOOPBACK);
    expect(rows[2]).toContain(a.hidden);
    await page.getByLabel(a.actionLabel).selectOption('');
    await table(page).getByText(child.email).first().waitFor();
    expect(await table(page).textContent()).not.toContain(other.email);
    await shotWidths(page, 'audit-log-reseller');
    await page.context().close();
  });

  it('lets the Admin set the retention on User Management, refusing under 90 days', async () => {
    const page = await t.page();
    await page.goto('/users');
    const days = page.getByLabel(a.retentionLabel);
    await expect.poll(() => days.inputValue()).toBe('400');
    await days.fill('50');
    await page.getByText(auditMessages.retentionInvalid).waitFor();
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    await days.fill('120');
    await save.click();
    await expect
      .poll(
        async () =>
          (
            await apiJson<{ auditRetentionDays: number }>(
              'GET',
              '/api/settings/security',
              t.adminToken,
            )
          ).auditRetentionDays,
      )
      .toBe(120);
    await page.reload();
    await expect.poll(() => page.getByLabel(a.retentionLabel).inputValue()).toBe('120');
    await apiJson('PUT', '/api/settings/security', t.adminToken, {
      requireTwoFactor: false,
      auditRetentionDays: 400,
    });
    await page.context().close();
  });
});
