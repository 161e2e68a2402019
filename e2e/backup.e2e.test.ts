import fs from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import type { Route } from 'playwright-core';
import { CLEANUP_CONFIRM_WORD, server as msg, ui, type BackupSave } from '@herald/contract';
import { apiCreateUser, journey, shot, shotWidths } from './support/browser.js';

/**
 * Backup & Data Management and Storage Management (docs/product.md, Backup and storage): the full
 * backup downloads with a progress indicator while it builds; a save to the server shows its
 * progress (after a reload too), then the saved file's name or why it failed; a cleanup asks for
 * both dates, warns about users, confirms, and reports; the storage screen shows MB and rows per
 * table; other roles are sent to /unauthorized. The cleanup range lies in the year 2000 so the shared e2e database
 * loses nothing.
 */
let user: { email: string; password: string };

const t = journey(async (adminToken) => {
  user = await apiCreateUser(adminToken, 'Reseller', 'Backup Reseller');
});

describe('backup screen', () => {
  it('downloads the full backup with progress while it builds', async () => {
    const page = await t.page();
    // The first progress answer is held as "building 40%" until the screenshot is taken.
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let first = true;
    await page.route('**/api/backup/downloads/*/progress', async (route: Route) => {
      if (!first) return route.continue();
      first = false;
      await held;
      await route.fulfill({
        json: { state: 'building', rows: 400, totalRows: 1000 },
      });
    });
    await page.goto('/backup');
    await page.getByRole('heading', { name: ui.backup.title }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: ui.backup.download }).click();
    release();
    await page.getByTestId('backup-progress').getByText('40%').waitFor();
    await page.getByText(ui.backup.building(400, 1000)).waitFor();
    await shot(page, 'backup-progress');
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^backup-\d{8}T\d{9}Z\.xlsx$/);
    const book = XLSX.read(fs.readFileSync((await file.path())!));
    expect(book.SheetNames).toContain('users');
    expect(book.SheetNames).toContain('credit_transactions');
    expect(book.SheetNames).not.toContain('password_resets');
    await page.getByText(ui.backup.downloaded).waitFor();

    // Save to server runs on the server's job runner: the screen shows its progress (the first
    // answer about it is held as "building 40%" for the screenshot), then the server's message
    // and the file in the saved list.
    let releaseSave: () => void = () => {};
    const heldSave = new Promise<void>((r) => (releaseSave = r));
    let firstSave = true;
    await page.route('**/api/backup/save-to-server/*', async (route: Route) => {
      if (!firstSave) return route.continue();
      firstSave = false;
      const real = (await (await route.fetch()).json()) as BackupSave;
      await heldSave;
      await route.fulfill({
        json: { ...real, state: 'building', rows: 400, totalRows: 1000, name: null, message: null },
      });
    });
    await page.getByRole('button', { name: ui.backup.saveToServer }).click();
    releaseSave();
    await page.getByTestId('backup-save-progress').getByText('40%').waitFor();
    await page.getByText(ui.backup.saving(400, 1000)).waitFor();
    expect(await page.getByRole('button', { name: ui.backup.saveToServer }).isDisabled()).toBe(
      true,
    );
    await shotWidths(page, 'backup-save-progress');
    await page.getByText(/^Backup saved to server as backup-/).waitFor();
    const savedAs = /as (backup-\S+\.xlsx)\.$/.exec(
      (await page.getByText(/^Backup saved to server as backup-/).textContent()) ?? '',
    )?.[1];
    expect(savedAs).toMatch(/^backup-\d{8}T\d{9}Z\.xlsx$/);
    await page.getByRole('cell', { name: savedAs }).waitFor();
    await shot(page, 'backup-screen');
    await page.context().close();
    // The shared e2e database holds the 1,000,000-recipient campaign of campaign-create's test:
    // two full backups of it on a busy machine outlast the default minute.
  }, 240_000);

  it('a screen reloaded while a save runs shows it running, then how it ended', async () => {
    const page = await t.page();
    // A save another Admin started, as the server reports it: building, then failed.
    const running: BackupSave = {
      id: 'A'.repeat(32),
      state: 'building',
      rows: 250,
      totalRows: 1000,
      name: null,
      message: null,
    };
    let end: () => void = () => {};
    const ended = new Promise<void>((r) => (end = r));
    let over = false;
    void ended.then(() => (over = true));
    await page.route('**/api/backup/save-to-server', (route: Route) =>
      route.request().method() === 'GET'
        ? route.fulfill({ json: { save: over ? null : running } })
        : route.continue(),
    );
    await page.route(`**/api/backup/save-to-server/${running.id}`, (route: Route) =>
      route.fulfill({
        json: over ? { ...running, state: 'failed', message: msg.backupFailed } : running,
      }),
    );
    await page.goto('/backup');
    await page.getByTestId('backup-save-progress').getByText('25%').waitFor();
    await page.reload();
    await page.getByTestId('backup-save-progress').getByText('25%').waitFor();
    await page.getByText(ui.backup.saving(250, 1000)).waitFor();
    expect(await page.getByRole('button', { name: ui.backup.saveToServer }).isDisabled()).toBe(
      true,
    );
    end();
    await page.getByRole('alert').getByText(msg.backupFailed).waitFor();
    await page.getByTestId('backup-save-progress').waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: ui.backup.saveToServer }).isDisabled()).toBe(
      false,
    );
    await shotWidths(page, 'backup-save-failed');
    await page.context().close();
  });

  it('a cleanup needs both dates, warns about users, confirms, then reports', async () => {
    const page = await t.page();
    await page.goto('/backup');
    await page.getByLabel(ui.backup.dataType).selectOption('users');
    await page.getByTestId('users-warning').getByText(ui.backup.usersWarning).waitFor();
    await page.getByRole('button', { name: ui.backup.cleanupButton }).click();
    await page.getByText(ui.backup.cleanupDatesRequired).waitFor();
    await page.getByLabel(ui.backup.fromDate).fill('2000-01-01');
    await page.getByLabel(ui.backup.toDate).fill('2000-01-31');
    await page.getByRole('button', { name: ui.backup.cleanupButton }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(ui.backup.confirmTitle).waitFor();
    await dialog.getByText('all users from 2000-01-01 to 2000-01-31').waitFor();
    await dialog.getByText(ui.backup.usersWarning).waitFor();
    // After the modal's 300 ms fade-in.
    await page.waitForTimeout(400);
    await shot(page, 'backup-cleanup-confirm');
    // Delete stays off until the word is typed.
    const confirmButton = dialog.getByRole('button', { name: ui.backup.confirmButton });
    expect(await confirmButton.isDisabled()).toBe(true);
    await dialog
      .getByLabel(ui.backup.typeToConfirm(CLEANUP_CONFIRM_WORD))
      .fill(CLEANUP_CONFIRM_WORD);
    await confirmButton.click();
    await page.getByText(/^Deleted 0 users\. A backup was saved first as backup-/).waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    await shot(page, 'backup-cleanup-done');
    await page.context().close();
  });
});

describe('storage screen', () => {
  it('shows file and database MB and rows per table', async () => {
    const page = await t.page();
    await page.goto('/storage');
    await page.getByRole('heading', { name: ui.backup.storageTitle }).waitFor();
    await page
      .getByTestId('file-storage')
      .getByText(/^\d+\.\d\d MB$/)
      .waitFor();
    await page
      .getByTestId('database-storage')
      .getByText(/^\d+\.\d\d MB$/)
      .waitFor();
    const users = page.getByTestId('collections').getByRole('row', { name: /^users \d+$/ });
    await users.waitFor();
    await page.getByRole('heading', { name: ui.backup.cleanupTitle }).waitFor();
    await shot(page, 'storage-screen');
    await page.context().close();
  });

  it('other roles are sent to /unauthorized', async () => {
    const page = await t.page(user);
    for (const path of ['/backup', '/storage']) {
      await page.goto(path);
      await page.waitForURL('**/unauthorized');
    }
    await page.context().close();
  });
});
