import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  SIMULATED_DELIVERY_NOTICE,
  server as msg,
  ui,
  DELIVERY_LIMITS,
  type Campaign,
  type DeliveryBreakdown,
  type Sender,
} from '@herald/contract';
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

/**
 * Delivery on the screens: the Admin sets a sender's rate on Providers, then
 * approves a campaign and watches the built-in simulator deliver it, the row's progress bar and
 * counts moving live until Completed and Report Generated, with no reload; the owner opens the
 * report built from the delivery. Needs the dispatcher, webhooks and settlement (the app's
 * default: dispatch on, the in-process simulator).
 */

const TYPE = 'Normal Message - domestic';
/** The user's rows are told apart by their Recipients cell. */
const COUNT = 163;
/** The first number ends in 0000: the simulator refuses it for good, so one recipient fails. */
const BASE = 9_500_000_000;
/** Slow enough that the bar is seen between 0 and 100. */
const RATE = 40;

let user: { email: string; password: string };
let simulator: Sender;
let campaignId: string;

const t = journey(async (adminToken) => {
  user = await apiCreateUser(adminToken, 'User', 'Delivery User');
  await apiGiveCredits(adminToken, user.email, TYPE, 500);
  simulator = (await apiJson<Sender[]>('GET', '/api/delivery/senders', adminToken)).find(
    (s) => s.isDefault,
  )!;
});
afterAll(async () => {
  // The e2e database is shared by the journeys: the sender gets its limits back.
  if (simulator) {
    await apiJson('PUT', `/api/delivery/senders/${simulator.id}`, t.adminToken, {
      ratePerSecond: simulator.ratePerSecond,
      dailyLimit: simulator.dailyLimit,
    });
  }
});

/** The user's campaign with `count` recipients on the Campaigns screen. */
function userRow(page: Page, count = COUNT) {
  return campaignRow(page.getByRole('table', { name: 'Campaigns' }), user.email, count);
}

async function openActions(page: Page, count: number) {
  await userRow(page, count).getByRole('button', { name: 'Actions' }).click();
  const menu = page.locator('.dropdown-menu.show');
  await menu.waitFor();
  return menu;
}

async function act(page: Page, label: string, count = COUNT) {
  const menu = await openActions(page, count);
  await menu.getByRole('button', { name: label, exact: true }).click();
}

/** The labels a row's Actions menu offers (the menu is closed again). */
async function actionLabels(page: Page, count: number) {
  const menu = await openActions(page, count);
  const labels = await menu.getByRole('button').allInnerTexts();
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
  return labels;
}

async function approve(page: Page, count: number) {
  await act(page, 'Change Status', count);
  const statusDialog = page.getByRole('dialog', { name: 'Change Status' });
  await statusDialog.getByLabel('Status').selectOption('Approved');
  await statusDialog.getByRole('button', { name: 'Update' }).click();
  await statusDialog.waitFor({ state: 'hidden' });
}

async function openMenu(page: Page, label: string) {
  await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { name: label, exact: true }).waitFor();
}

describe('delivery', () => {
  it("the Admin changes the simulator's rate on Providers", async () => {
    const page = await t.page();
    await openMenu(page, ui.providers.title);
    const table = page.getByRole('table', { name: 'Senders' });
    const row = table.getByRole('row').filter({ hasText: simulator.name });
    await row.getByRole('cell', { name: ui.delivery.unlimited, exact: true }).waitFor();
    await row.getByRole('button', { name: `Edit ${simulator.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${simulator.name}` });
    const rate = dialog.getByLabel('Rate per second');
    await rate.fill('0');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(msg.senderRateInvalid(DELIVERY_LIMITS.senderRateMax)).waitFor();
    await rate.fill(String(RATE));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText(ui.delivery.senderSaved(simulator.name)).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByRole('cell', { name: String(RATE), exact: true }).waitFor();
    await shot(page, 'delivery-settings');
    const senders = await apiJson<Sender[]>('GET', '/api/delivery/senders', t.adminToken);
    expect(senders.find((s) => s.id === simulator.id)).toMatchObject({
      ratePerSecond: RATE,
      dailyLimit: null,
    });
    await page.close();
  });

  it('the Admin approves a campaign and watches it delivered to Completed without reloading', async () => {
    const userToken = (await apiLogin(user.email, user.password)).token;
    const before = await apiBalance(t.adminToken, user.email, TYPE);
    const to = Array.from({ length: COUNT }, (_, i) => String(BASE + i)).join(',');
    campaignId = await apiCreateCampaign(userToken, {
      creditType: TYPE,
      message: 'Live delivery',
      to,
    });

    const page = await t.page();
    await openMenu(page, 'Campaigns');
    const row = userRow(page);
    await row.getByText('Submitted').waitFor();
    // Set on this document: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    await approve(page, COUNT);

    // The bar moves while the row is Processing; each value seen is kept.
    const bar = row.getByRole('progressbar');
    const seen = new Set<number>();
    let midShot = false;
    await expect
      .poll(
        async () => {
          if ((await bar.count()) > 0) {
            const value = Number(await bar.getAttribute('aria-valuenow'));
            seen.add(value);
            if (value > 0 && value < 100 && !midShot) {
              midShot = true;
              await shot(page, 'delivery-progress-mid');
            }
          }
          return row.getByRole('cell', { name: /^(Completed|Report Generated)$/ }).count();
        },
        { timeout: 90_000, interval: 150 },
      )
      .toBe(1);
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBe(100);
    expect(
      [...seen].some((v) => v > 0 && v < 100),
      `seen: ${[...seen].join(',')}`,
    ).toBe(true);
    await page.getByText(SIMULATED_DELIVERY_NOTICE).first().waitFor();

    // The row's counts are the server's: sent + failed = every recipient.
    const list = await apiJson<{ campaigns: Campaign[] }>('GET', '/api/campaigns', t.adminToken);
    const delivery = list.campaigns.find((c) => c._id === campaignId)!.delivery!;
    expect(delivery.simulated).toBe(true);
    expect(delivery.sent + delivery.failed).toBe(COUNT);
    expect(delivery.failed).toBeGreaterThanOrEqual(1);
    await row.getByText('Report Generated').waitFor({ timeout: 30_000 });
    // The row shows the report's figures, in the words the report and the details use.
    const done = (
      await apiJson<{ campaigns: Campaign[] }>('GET', '/api/campaigns', t.adminToken)
    ).campaigns.find((c) => c._id === campaignId)!;
    const failed = done.reportCount - done.reportDelivered;
    expect(failed).toBeGreaterThanOrEqual(1);
    // Read receipts may still arrive after the report (a person reads later): the row and the
    // server are compared at the same moment until they agree.
    const resultsLine = async () => {
      const now = (
        await apiJson<{ campaigns: Campaign[] }>('GET', '/api/campaigns', t.adminToken)
      ).campaigns.find((c) => c._id === campaignId)!;
      const shown = (await row.getByLabel('Delivery results').innerText()).replace(/\s+/g, ' ');
      const expected = `${now.reportDelivered} delivered · ${now.reportCount - now.reportDelivered} failed of ${now.reportCount} ${now.delivery!.read} read`;
      return shown === expected ? 'agree' : `${shown} ≠ ${expected}`;
    };
    await expect.poll(resultsLine, { timeout: 15_000 }).toBe('agree');
    await shot(page, 'delivery-completed');

    // The details dialog: counts by state and the provider's errors by code.
    await act(page, 'View');
    const details = page.getByRole('dialog', { name: 'Campaign Details' });
    const breakdown = details.getByRole('table', { name: 'Recipients by delivery state' });
    await breakdown.getByText(ui.delivery.stateLabels.failed).waitFor();
    // The same figures as the row (both follow late read receipts live).
    await expect
      .poll(
        async () =>
          (await details.getByLabel('Delivery results').innerText()) ===
          (await row.getByLabel('Delivery results').innerText()),
        { timeout: 15_000 },
      )
      .toBe(true);
    const errors = details.getByRole('table', { name: 'Provider errors' });
    await errors.getByRole('cell', { name: '131026', exact: true }).waitFor();
    await shot(page, 'delivery-details');
    const api = await apiJson<DeliveryBreakdown>(
      'GET',
      `/api/campaigns/${campaignId}/delivery`,
      t.adminToken,
    );
    expect(api.states.reduce((n, s) => n + s.count, 0)).toBe(COUNT);
    expect(api.states.find((s) => s.state === 'unsent')).toBeUndefined();

    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(
      true,
    );
    await page.close();

    // The failed recipients were refunded to the owner.
    expect(await apiBalance(t.adminToken, user.email, TYPE)).toBe(before - COUNT + delivery.failed);
  }, 150_000);

  it('the owner opens the report built from the delivery, marked as simulated', async () => {
    const page = await t.page(user);
    await openMenu(page, 'My Campaigns');
    await userRow(page).getByText('Report Generated').waitFor();
    await page.getByText(SIMULATED_DELIVERY_NOTICE).first().waitFor();
    await act(page, 'View Report');
    const report = page.getByRole('dialog', { name: /Delivery Report/ });
    await report.getByText(SIMULATED_DELIVERY_NOTICE).waitFor();
    await expect
      .poll(() => report.getByLabel('Report summary').innerText())
      .toMatch(new RegExp(`${COUNT}\\s*Total`));
    // The report's tiles agree with the row.
    const row = await userRow(page).getByLabel('Delivery results').innerText();
    const [delivered, failed] = /^(\d+) delivered · (\d+) failed/.exec(row)!.slice(1);
    expect(await report.getByLabel('Report summary').innerText()).toMatch(
      new RegExp(`^${delivered}\\s*Delivered\\s*${failed}\\s*Failed\\s*${COUNT}\\s*Total`),
    );
    await shot(page, 'delivery-owner-report');
    await page.close();
  });

  it('the Admin pauses, resumes and cancels a campaign being sent; the unsent are refunded', async () => {
    // Long enough at RATE that the sending is still under way after the clicks below.
    const count = 1200;
    const userToken = (await apiLogin(user.email, user.password)).token;
    await apiGiveCredits(t.adminToken, user.email, TYPE, count);
    const before = await apiBalance(t.adminToken, user.email, TYPE);
    const to = Array.from({ length: count }, (_, i) => String(9_600_000_001 + i)).join(',');
    const id = await apiCreateCampaign(userToken, { creditType: TYPE, message: 'Stopped', to });

    const page = await t.page();
    await openMenu(page, 'Campaigns');
    const row = userRow(page, count);
    await row.getByText('Submitted').waitFor();
    expect(await actionLabels(page, count)).not.toContain('Pause Sending');
    await approve(page, count);
    const dispatch = (label: string) => row.getByText(label, { exact: true });

    await dispatch(ui.delivery.dispatchLabels.running).waitFor();
    await act(page, 'Pause Sending', count);
    await page.getByText(msg.deliveryPaused).waitFor();
    await dispatch(ui.delivery.dispatchLabels.paused).waitFor();
    const paused = await actionLabels(page, count);
    expect(paused).toContain('Resume Sending');
    expect(paused).not.toContain('Pause Sending');
    await shot(page, 'delivery-paused');

    await act(page, 'Resume Sending', count);
    await page.getByText(msg.deliveryResumed).waitFor();
    await dispatch(ui.delivery.dispatchLabels.running).waitFor();

    await act(page, 'Cancel Sending', count);
    const confirm = page.getByRole('dialog').filter({ hasText: ui.delivery.cancelText(count) });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: ui.delivery.cancelTitle }).click();
    await page.getByText(ui.campaigns.statusUpdated('Cancelled')).waitFor();
    await row.getByRole('cell', { name: 'Cancelled', exact: true }).waitFor();
    await dispatch(ui.delivery.dispatchLabels.cancelled).waitFor();
    await shot(page, 'delivery-cancelled');
    await page.close();

    // Once the sends in flight end, the failed and the never sent come back to the owner, once.
    const deliveryOf = async () =>
      (await apiJson<Campaign>('GET', `/api/campaigns/${id}`, t.adminToken)).delivery!;
    await expect
      .poll(async () => (await deliveryOf()).refunded, { timeout: 60_000 })
      .toBeGreaterThan(0);
    const d = await deliveryOf();
    expect(d.sent + d.failed).toBeLessThan(count);
    expect(d.refunded).toBe(count - d.sent);
    expect(await apiBalance(t.adminToken, user.email, TYPE)).toBe(before - count + d.refunded);
  }, 150_000);
});
