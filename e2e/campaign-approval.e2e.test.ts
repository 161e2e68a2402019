import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { server as msg, ui } from '@herald/contract';
import {
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  baseUrl,
  campaignRow,
  journey,
  shot,
} from './support/browser.js';
import { solidPng } from './support/png.js';

/**
 * The Admin's approval queue (docs/product.md, Campaigns): Reject with a reason the owner reads
 * in the bell and the details, the media shown as it will be sent, Approve selected from the
 * dashboard's queue link, and the campaign list within reach on a phone.
 */

const TYPE = 'Normal Message - domestic';
const REASON = 'The offer in the message ended last week; please send the new price list.';
/** Recipient counts keep this file's rows apart from other journeys' campaigns. */
const COUNTS = { reject: 31, bulkA: 32, bulkB: 33 };
let owner: { email: string; password: string; name: string };
const ids = { reject: '', bulkA: '', bulkB: '' };

const PDF = Buffer.from('%PDF-1.4\n%e2e\n', 'latin1');
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom'),
  Buffer.alloc(64),
]);
const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(64)]);

const numbers = (n: number, base: number) =>
  Array.from({ length: n }, (_, i) => String(base + i)).join(',');

/** Creates a campaign with media files through the multipart API; returns its id. */
async function createWithFiles(
  token: string,
  fields: Record<string, string>,
  files: { field: string; name: string; type: string; data: Buffer }[],
): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) {
    form.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  }
  const res = await fetch(`${baseUrl()}/api/campaigns`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`POST /api/campaigns: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { campaign: { _id: string } }).campaign._id;
}

/** The campaign to reject is named after its message (no name given). */
const REJECT_NAME = { name: 'Summer sale: see the picture' };

const t = journey(async (adminToken) => {
  owner = await apiCreateUser(adminToken, 'User', 'Queue Owner');
  await apiGiveCredits(adminToken, owner.email, TYPE, 500);
  const token = (await apiLogin(owner.email, owner.password)).token;
  const fields = (message: string, count: number, base: number) => ({
    creditType: TYPE,
    message,
    to: numbers(count, base),
  });
  ids.reject = await createWithFiles(
    token,
    fields(REJECT_NAME.name, COUNTS.reject, 9_510_000_000),
    [
      {
        field: 'images',
        name: 'shop-front.png',
        type: 'image/png',
        data: solidPng(320, 180, '3070c0'),
      },
      { field: 'pdf', name: 'price-list.pdf', type: 'application/pdf', data: PDF },
      { field: 'video', name: 'teaser.mp4', type: 'video/mp4', data: MP4 },
      { field: 'audio', name: 'jingle.mp3', type: 'audio/mpeg', data: MP3 },
    ],
  );
  ids.bulkA = await createWithFiles(
    token,
    fields('First to approve', COUNTS.bulkA, 9_520_000_000),
    [],
  );
  ids.bulkB = await createWithFiles(
    token,
    fields('Second to approve', COUNTS.bulkB, 9_530_000_000),
    [],
  );
});

const table = (page: Page) => page.getByRole('table', { name: 'Campaigns' });
const row = (page: Page, count: number) => campaignRow(table(page), owner.email, count);

async function act(page: Page, count: number, label: string) {
  await row(page, count).getByRole('button', { name: 'Actions' }).click();
  const menu = page.locator('.dropdown-menu.show');
  await menu.getByRole('button', { name: label, exact: true }).click();
}

async function openBell(page: Page) {
  await page.getByRole('button', { name: /^Alerts/ }).click();
  return page.locator('.alerts-menu');
}

describe('the approval queue', () => {
  it('Admin sees the media, rejects with a reason; the owner reads it in the bell and details', async () => {
    const page = await t.page();
    await page.setViewportSize({ width: 1366, height: 900 });
    // The new campaigns reached the Admin's bell.
    const bell = await openBell(page);
    await bell
      .getByRole('button', { name: msg.notifyCampaignAwaitingApproval(REJECT_NAME, owner.email) })
      .waitFor();
    await page.keyboard.press('Escape');

    await page.goto('/campaigns');
    await row(page, COUNTS.reject).getByText('Submitted').waitFor();
    await act(page, COUNTS.reject, 'View');
    const details = page.getByRole('dialog', { name: 'Campaign Details' });
    const image = details.getByRole('img', { name: 'shop-front.png' });
    await expect.poll(() => image.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(320);
    expect(await details.locator('video').getAttribute('src')).toMatch(/^blob:/);
    expect(await details.locator('audio').getAttribute('src')).toMatch(/^blob:/);
    const pdf = details.getByRole('button', { name: 'price-list.pdf' });
    const download = page.waitForEvent('download');
    await pdf.click();
    expect((await download).suggestedFilename()).toBe('price-list.pdf');
    await page.waitForTimeout(400); // the fade-in, so the screenshot shows the dialog as seen
    await shot(page, 'approval-details-media-1366');

    // Reject from the details: the reason is asked, and a blank one is refused in place.
    await details.getByRole('button', { name: 'Reject', exact: true }).click();
    const reject = page.getByRole('dialog', { name: 'Reject Campaign' });
    await reject.getByRole('button', { name: 'Reject', exact: true }).click();
    await reject.getByText(msg.rejectReasonRequired).waitFor();
    await reject.getByLabel('Reason').fill(REASON);
    await reject.getByText(`${REASON.length} / 500 characters`).waitFor();
    await shot(page, 'approval-reject-dialog-1366');
    await reject.getByRole('button', { name: 'Reject', exact: true }).click();
    await page.getByText(ui.campaigns.rejected).waitFor();
    await row(page, COUNTS.reject).getByText('Rejected').waitFor();
    await page.context().close();

    // The owner: the bell names the reason, and so do the details.
    const mine = await t.page(owner);
    const ownerBell = await openBell(mine);
    const note = ownerBell.getByRole('button', {
      name: msg.notifyCampaignRejected(REJECT_NAME, REASON),
    });
    await note.waitFor();
    await shot(mine, 'approval-owner-bell-1366');
    // One notice for the step: the reason, nothing else about this campaign.
    const mineNow = await apiJson<{ notifications: { message: string; link: string }[] }>(
      'GET',
      '/api/notifications',
      (await apiLogin(owner.email, owner.password)).token,
    );
    expect(
      mineNow.notifications
        .filter((n) => n.message.includes(REJECT_NAME.name))
        .map((n) => [n.message, n.link]),
    ).toEqual([[msg.notifyCampaignRejected(REJECT_NAME, REASON), `/campaigns?open=${ids.reject}`]]);
    // The notice opens that campaign's details (a deep link), not just the list.
    await note.click();
    await mine.waitForURL((url) => url.pathname === '/campaigns');
    const ownerDetails = mine.getByRole('dialog', { name: 'Campaign Details' });
    expect(await ownerDetails.getByTestId('campaign-rejection-reason').innerText()).toBe(REASON);
    // The link is spent: a refresh shows the list, not the dialog again.
    await mine.waitForURL((url) => !url.searchParams.has('open'));
    // Not the Admin: no Approve or Reject.
    expect(await ownerDetails.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await mine.waitForTimeout(400); // the fade-in, so the screenshot shows the dialog as seen
    await shot(mine, 'approval-owner-deep-link-1366');
    await mine.keyboard.press('Escape');
    await mine.context().close();
  });

  it('Admin opens the queue from the dashboard and approves two at once', async () => {
    const page = await t.page();
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/dashboard');
    const card = page.getByTestId('dashboard-awaiting-approval');
    const queued = await apiJson<{ awaitingApproval: number }>(
      'GET',
      '/api/dashboard',
      t.adminToken,
    );
    await card
      .getByTestId('dashboard-awaiting-approval-value')
      .getByText(String(queued.awaitingApproval))
      .waitFor();
    await shot(page, 'approval-dashboard-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'approval-dashboard-390');
    await page.setViewportSize({ width: 1366, height: 900 });
    await card.getByRole('link').click();
    await page.waitForURL((url) => url.pathname === '/campaigns');
    const status = page.getByLabel('Status');
    expect(await status.inputValue()).toBe('Awaiting Approval');
    await row(page, COUNTS.bulkA).waitFor();
    // The rejected campaign is out of the queue.
    await expect.poll(() => row(page, COUNTS.reject).count()).toBe(0);

    const approveSelected = page.getByRole('button', { name: /^Approve selected/ });
    expect(await approveSelected.isDisabled()).toBe(true);
    for (const count of [COUNTS.bulkA, COUNTS.bulkB]) {
      await row(page, count).getByRole('checkbox').check();
    }
    await page.getByRole('button', { name: 'Approve selected (2)' }).waitFor();
    await shot(page, 'approval-bulk-selected-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'approval-bulk-selected-390');
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('button', { name: 'Approve selected (2)' }).click();
    await page.getByText(`✅ ${msg.bulkApproveResult(2, 0)}`).waitFor();
    // Approved leaves the filtered queue (the engine may take it into Processing at once).
    await expect.poll(() => row(page, COUNTS.bulkA).count()).toBe(0);
    await expect.poll(() => row(page, COUNTS.bulkB).count()).toBe(0);
    for (const id of [ids.bulkA, ids.bulkB]) {
      const c = await apiJson<{ status: string }>('GET', `/api/campaigns/${id}`, t.adminToken);
      expect(c.status).toMatch(/^(Approved|Processing|Completed|Report Generated)$/);
    }
    await shot(page, 'approval-bulk-done-1366');
    await page.context().close();
  });

  it('on a phone the list is on the first screen; the form opens on demand', async () => {
    const page = await t.page(owner);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/campaigns');
    await row(page, COUNTS.bulkA).waitFor();
    const form = page.locator('#create-campaign-section');
    expect(await form.isVisible()).toBe(false);
    // The filters and the list start within the first screen, not below the whole form.
    const filtersTop = (await page.getByRole('heading', { name: 'Filters' }).boundingBox())!.y;
    expect(filtersTop).toBeLessThan(844);
    await shot(page, 'approval-campaigns-phone-390');
    await page.getByRole('button', { name: 'New Campaign' }).click();
    expect(await form.isVisible()).toBe(true);
    await page.waitForTimeout(300); // the button's colour transition, so the shot shows its state
    await shot(page, 'approval-campaigns-phone-form-390');
    await page.getByRole('button', { name: 'Hide form' }).click();
    expect(await form.isVisible()).toBe(false);
    // The details on a phone: the media and the reason fit the screen.
    await act(page, COUNTS.reject, 'View');
    const details = page.getByRole('dialog', { name: 'Campaign Details' });
    await details.getByTestId('campaign-rejection-reason').waitFor();
    const image = details.getByRole('img', { name: 'shop-front.png' });
    await expect.poll(() => image.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(320);
    expect((await image.boundingBox())!.width).toBeLessThanOrEqual(390);
    await page.waitForTimeout(400); // the fade-in
    await shot(page, 'approval-owner-details-390');
    await details.getByRole('button', { name: 'Close' }).first().click();
    await details.waitFor({ state: 'hidden' });

    // Wide screens keep the form in place, with no toggle.
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(await form.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'New Campaign' }).isVisible()).toBe(false);
    await shot(page, 'approval-campaigns-owner-1366');
    await page.context().close();
  });
});
