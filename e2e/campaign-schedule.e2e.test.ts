import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { scheduleMessages, scheduleUi, ui, type Campaign } from '@herald/contract';
import {
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  baseUrl,
  campaignRow,
  journey,
  loginUi,
  shot,
  type Credentials,
} from './support/browser.js';

/**
 * Scheduled sends (docs/delivery.md, Scheduled sends): the owner picks a Send at in its own
 * time zone (the browser's, named beside the field), the Admin approves, and the campaign stays
 * Approved, "Scheduled for …" in the viewer's zone, in the list and the details.
 */

const TYPE = 'Normal Message - domestic';
/** A zone away from the machine's, with a half hour: the conversion is visible. */
const ZONE = 'Australia/Adelaide';
/** Recipient count that keeps this file's row apart from other journeys' campaigns. */
const COUNT = 37;
const numbers = Array.from({ length: COUNT }, (_, i) => String(9_370_000_000 + i)).join(' ');

let owner: Credentials & { name: string };
const t = journey(async (adminToken) => {
  owner = await apiCreateUser(adminToken, 'User', 'Schedule Owner');
  await apiGiveCredits(adminToken, owner.email, TYPE, 100);
});

/** A logged-in page whose browser runs in ZONE. */
async function zonedPage(browser: Browser, who: Credentials): Promise<Page> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 1280, height: 900 },
    timezoneId: ZONE,
    locale: 'en-GB',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await loginUi(page, who.email, who.password);
  return page;
}

/** `at` as a datetime-local value in ZONE (what a person there types). */
function localIn(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: ZONE,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** How the screens show `iso` to a viewer in ZONE with the en-GB locale. */
const shownIn = (iso: string) =>
  `${new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: ZONE })} (${ZONE})`;

/**
 * Screenshots `<name>-1280` and `<name>-390`; `onPhone` runs once the page is phone-wide (the
 * create form sits behind New Campaign there).
 */
async function shots(page: Page, name: string, onPhone?: () => Promise<void>) {
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await onPhone?.();
  await page.waitForTimeout(300);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function openDetails(page: Page) {
  const table = page.getByRole('table', { name: 'Campaigns' });
  await campaignRow(table, owner.email, COUNT).getByRole('button', { name: 'Actions' }).click();
  await page
    .locator('.dropdown-menu.show')
    .getByRole('button', { name: 'View', exact: true })
    .click();
  return page.getByRole('dialog', { name: 'Campaign Details' });
}

describe('a scheduled campaign', () => {
  it('is created with Send at in the owner’s zone, approved, and shown Scheduled for …', async () => {
    const page = await zonedPage(t.browser, owner);
    await page.goto('/campaigns');
    const form = page.getByRole('form', { name: 'Create Campaign' });
    await form.getByLabel('Message').fill('Our doors open at nine tomorrow.');
    await form.getByLabel('Numbers', { exact: true }).fill(numbers);
    const sendAt = form.getByLabel(scheduleUi.sendAtLabel);
    await form.getByText(scheduleUi.sendAtHint(ZONE)).waitFor();

    const typed = localIn(new Date(Date.now() + 3 * 60 * 60_000));
    await sendAt.fill(typed);
    await shots(page, 'schedule-form', async () => {
      const open = page.getByRole('button', { name: 'New Campaign' });
      if (await open.isVisible()) await open.click();
      await sendAt.scrollIntoViewIfNeeded();
    });
    expect(await sendAt.inputValue()).toBe(typed);

    // A past time is refused by the form, with the contract's words.
    await sendAt.fill(localIn(new Date(Date.now() - 60 * 60_000)));
    await form.getByRole('button', { name: 'Create Campaign' }).click();
    await form.getByText(scheduleMessages.sendAtPast).waitFor();
    await sendAt.fill(typed);
    await form.getByRole('button', { name: 'Create Campaign' }).click();
    const confirm = page.getByRole('dialog', { name: ui.campaigns.confirmTitle });
    await confirm.getByText(/It will be sent at .*, once approved\./).waitFor();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await form.getByText(ui.campaigns.created).waitFor();

    const ownerToken = (await apiLogin(owner.email, owner.password)).token;
    const list = await apiJson<{ campaigns: Campaign[] }>('GET', '/api/campaigns', ownerToken);
    const created = list.campaigns.find((c) => c.recipientCount === COUNT);
    if (!created?.sendAt) throw new Error('the campaign has no Send at');
    // Typed in Adelaide, kept in UTC: the same minute.
    expect(localIn(new Date(created.sendAt))).toBe(typed);

    // The Admin approves it from its row.
    const admin = await t.page();
    await admin.goto('/campaigns');
    const adminTable = admin.getByRole('table', { name: 'Campaigns' });
    await campaignRow(adminTable, owner.email, COUNT)
      .getByRole('button', { name: 'Actions' })
      .click();
    await admin
      .locator('.dropdown-menu.show')
      .getByRole('button', { name: 'Approve', exact: true })
      .click();
    const ask = admin.getByRole('dialog', { name: 'Approve Campaign' });
    await ask.getByRole('button', { name: 'Approve', exact: true }).click();
    await admin.getByText(ui.campaigns.approved).waitFor();
    const after = await apiJson<Campaign>('GET', `/api/campaigns/${created._id}`, t.adminToken);
    expect(after.status).toBe('Approved');
    await admin.context().close();

    // The owner sees it waiting, in its own zone.
    const scheduled = scheduleUi.scheduledFor(shownIn(created.sendAt));
    await page.reload();
    const table = page.getByRole('table', { name: 'Campaigns' });
    const row = campaignRow(table, owner.email, COUNT);
    await row.getByTestId('campaign-scheduled-for').getByText(scheduled, { exact: true }).waitFor();
    await row.scrollIntoViewIfNeeded();
    await shots(page, 'schedule-list');
    const details = await openDetails(page);
    await details.getByText(scheduled, { exact: true }).waitFor();
    await page.waitForTimeout(400);
    await shots(page, 'schedule-details');
    await page.context().close();
  });
});
