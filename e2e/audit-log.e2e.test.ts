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
  adminCredentials,
  apiCreateUser,
  apiJson,
  apiLogin,
  journey,
  shotWidths,
} from './support/browser.js';
import { writeAuditEntries, type E2eAuditEntry } from './support/audit-entries.js';

/**
 * The Audit Log: the Admin sees every entry, filters by action, loads more, exports CSV; a
 * Reseller sees only its subtree's entries, without the Admin's IP.
 */

let reseller: Awaited<ReturnType<typeof apiCreateUser>>;
let child: Awaited<ReturnType<typeof apiCreateUser>>;
let other: Awaited<ReturnType<typeof apiCreateUser>>;
const ROUTING_ENTRIES = AUDIT_LOG_PAGE_DEFAULT + 10;

const t = journey(async (adminToken) => {
  const admin = await apiJson<{ id: string; email: string }>('GET', '/api/session', adminToken);
  reseller = await apiCreateUser(adminToken, 'Reseller', 'Audit Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  child = await apiCreateUser(resellerToken, 'User', 'Audit Child');
  other = await apiCreateUser(adminToken, 'Reseller', 'Audit Other');
  const asAdmin = { actorId: admin.id, actorLabel: adminCredentials().email, actorRole: 'Admin' };
  const entries: E2eAuditEntry[] = [];
  for (let i = 0; i < ROUTING_ENTRIES; i++) {
    entries.push({
      ...asAdmin,
      action: 'routing.update',
      target: { type: 'routing', id: null, label: null },
      subjectId: null,
      changes: { weight: { before: i, after: i + 1 } },
    });
  }
  entries.push(
    {
      actorId: reseller.id,
      actorLabel: reseller.email,
      actorRole: 'Reseller',
      action: 'credits.add',
      target: { type: 'user', id: child.id, label: child.email },
      subjectId: child.id,
      changes: { balance: { before: 0, after: 25 } },
      ip: '203.0.113.50',
    },
    {
      ...asAdmin,
      action: 'user.block',
      target: { type: 'user', id: child.id, label: child.email },
      subjectId: child.id,
      changes: { status: { before: 'Active', after: 'Blocked' } },
      ip: '198.51.100.99',
    },
    {
      actorId: other.id,
      actorLabel: other.email,
      actorRole: 'Reseller',
      action: 'credits.remove',
      target: { type: 'user', id: other.id, label: other.email },
      subjectId: other.id,
    },
  );
  await writeAuditEntries(entries);
});

const table = (page: Page) => page.getByRole('table', { name: a.title });
const bodyRows = (page: Page) => table(page).locator('tbody tr');

describe('the Audit Log', () => {
  it('shows the Admin every entry, filters by action, loads more and exports CSV', async () => {
    const page = await t.page();
    await page.getByRole('link', { name: 'Audit Log' }).click();
    await page.getByRole('heading', { name: a.title, level: 1 }).waitFor();
    await table(page).getByText(child.email).first().waitFor();
    // Newest first: the other reseller's entry on top, the Admin's IP shown.
    await expect.poll(() => bodyRows(page).first().textContent()).toContain('credits.remove');
    await table(page).getByText('198.51.100.99').waitFor();
    await shotWidths(page, 'audit-log-admin');

    // Load more as the end scrolls into view.
    await page
      .getByText('End of the audit log')
      .scrollIntoViewIfNeeded()
      .catch(() => undefined);
    await bodyRows(page).last().scrollIntoViewIfNeeded();
    await page.getByText('End of the audit log').waitFor();
    expect(await bodyRows(page).count()).toBeGreaterThanOrEqual(ROUTING_ENTRIES + 3);

    // Details of one entry.
    await table(page)
      .getByRole('row')
      .filter({ hasText: 'user.block' })
      .getByRole('button', { name: /^Details/ })
      .click();
    const dialog = page.getByRole('dialog', { name: a.detailsTitle });
    await dialog.getByText('status: Active → Blocked').waitFor();
    await dialog.getByRole('button', { name: a.close }).last().click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByLabel(a.actionLabel).selectOption('credits');
    await expect.poll(() => bodyRows(page).count()).toBe(2);
    expect(await bodyRows(page).allTextContents()).toEqual([
      expect.stringContaining('credits.remove'),
      expect.stringContaining('credits.add'),
    ]);
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
    await expect.poll(() => bodyRows(page).count()).toBe(2);
    const rows = await bodyRows(page).allTextContents();
    expect(rows[0]).toContain('user.block');
    expect(rows[0]).toContain(a.hidden);
    expect(rows[0]).not.toContain('198.51.100.99');
    expect(rows[1]).toContain('credits.add');
    expect(rows[1]).toContain('203.0.113.50');
    expect(rows.join(' ')).not.toContain(other.email);
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
