import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { quietHoursMessages as qm, quietTime, ui, type QuietHours } from '@herald/contract';
import {
  apiCreateCampaign,
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  campaignRow,
  journey,
} from './support/browser.js';

/**
 * Quiet hours on the screens (docs/product.md, Quiet hours): a Reseller sets a window that
 * covers the present hour in India on Whitelabel Settings, then a campaign of Indian numbers it
 * sends is approved and shows "Waiting for quiet hours to end" instead of a stalled bar.
 */

const TYPE = 'Normal Message - domestic';
const COUNT = 7;
const SHOTS = '/work/shots/quiet';

let reseller: { email: string; password: string };
let resellerToken: string;
let campaignId: string | undefined;

const t = journey(async (adminToken) => {
  reseller = await apiCreateUser(adminToken, 'Reseller', 'Quiet Reseller');
  resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  await apiGiveCredits(adminToken, reseller.email, TYPE, 50);
});

/** A window from 30 minutes ago to 2 hours ahead, in India's local time (UTC+05:30). */
function windowAroundNowInIndia() {
  const now = new Date();
  const local = (now.getUTCHours() * 60 + now.getUTCMinutes() + 330) % 1440;
  return { start: quietTime((local + 1410) % 1440), end: quietTime((local + 120) % 1440) };
}

async function widths(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
}

describe('quiet hours', () => {
  it('a Reseller sets its own quiet hours on Whitelabel Settings', async () => {
    const page = await t.page(reseller);
    await page.goto('/whitelabel-settings');
    const form = page.getByRole('form', { name: ui.quietHours.title });
    await form.waitFor();
    const inherited = await apiJson<QuietHours>('GET', '/api/settings/quiet-hours', t.adminToken);
    await page
      .getByTestId('quiet-hours-in-force')
      .getByText(ui.quietHours.inForce(inherited.effective.start, inherited.effective.end), {
        exact: false,
      })
      .waitFor();

    const w = windowAroundNowInIndia();
    await form.getByLabel(ui.quietHours.start).fill(w.start);
    await form.getByLabel(ui.quietHours.end).fill(w.start);
    await form.getByRole('button', { name: ui.quietHours.save }).click();
    await form.getByText(qm.sameTimes).waitFor();

    await form.getByLabel(ui.quietHours.end).fill(w.end);
    await form.getByRole('button', { name: ui.quietHours.save }).click();
    await page.getByText(qm.saved).waitFor();
    await page.getByText(ui.quietHours.inForce(w.start, w.end)).waitFor();
    await page.getByRole('button', { name: ui.quietHours.useInherited }).waitFor();
    await widths(page, 'settings');
    const saved = await apiJson<QuietHours>('GET', '/api/settings/quiet-hours', resellerToken);
    expect(saved.own).toEqual(w);
  });

  it('its campaign to numbers in quiet hours waits for them to end', async () => {
    const to = Array.from({ length: COUNT }, (_, i) => String(9_400_000_000 + i)).join(',');
    campaignId = await apiCreateCampaign(resellerToken, { to, creditType: TYPE, message: 'Hi' });
    await apiJson('PUT', `/api/campaigns/status/${campaignId}`, t.adminToken, {
      status: 'Approved',
    });
    const page = await t.page(reseller);
    await page.goto('/campaigns');
    const row = campaignRow(page.getByRole('table', { name: 'Campaigns' }), reseller.email, COUNT);
    await row.getByText(ui.delivery.quietHold).waitFor({ timeout: 30_000 });
    await widths(page, 'campaign-waiting');
    // The e2e database is shared: the campaign stops here, and the Reseller inherits again.
    await apiJson('PUT', `/api/campaigns/status/${campaignId}`, t.adminToken, {
      status: 'Cancelled',
    });
    await apiJson('PUT', '/api/settings/quiet-hours', resellerToken, { start: null, end: null });
  });
});
