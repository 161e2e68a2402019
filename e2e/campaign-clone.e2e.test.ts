import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { campaignCopyUi, ui, type CampaignDetail, type CampaignList } from '@herald/contract';
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
import { png } from './support/png.js';

/** Clone, Resend to failed and Resend to not read (docs/product.md, Campaigns, "Clone and resend"). */

const TYPE = 'Normal Message - domestic';
const NAME = 'Diwali offer';
const MESSAGE = 'Diwali offer!\nTwo for one until Sunday.';
const COUNT = 7;
const NUMBERS = Array.from({ length: COUNT }, (_, i) => String(9_880_000_000 + i));
// Read counts as delivered; Sent (no receipt) as failed.
const STATUSES = ['Delivered', 'Failed', 'Read', 'Sent', 'Delivered', 'Failed', 'read'];
const FAILED = NUMBERS.filter((_, i) => !/^(delivered|read)$/i.test(STATUSES[i] ?? ''));
const NOT_READ = NUMBERS.filter((_, i) => !/^read$/i.test(STATUSES[i] ?? ''));

let reseller: { email: string; password: string; name: string };
let user: { email: string; password: string; name: string };
let userToken = '';
let sourceId = '';

async function post(token: string, url: string, form: FormData): Promise<unknown> {
  const res = await fetch(`${baseUrl()}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

const t = journey(async (adminToken) => {
  reseller = await apiCreateUser(adminToken, 'Reseller', 'Clone Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  user = await apiCreateUser(resellerToken, 'User', 'Clone User');
  userToken = (await apiLogin(user.email, user.password)).token;
  await apiGiveCredits(adminToken, user.email, TYPE, 100);
  const form = new FormData();
  form.append('creditType', TYPE);
  form.append('name', NAME);
  form.append('message', MESSAGE);
  form.append('to', NUMBERS.join(','));
  form.append(
    'images',
    new Blob([new Uint8Array(png(320, 180))], { type: 'image/png' }),
    'offer.png',
  );
  const created = (await post(userToken, '/api/campaigns', form)) as { campaign: { _id: string } };
  sourceId = created.campaign._id;
  const report = new FormData();
  const csv = ['number,status', ...NUMBERS.map((n, i) => `${n},${STATUSES[i]}`)].join('\n');
  report.append('reportFile', new Blob([csv], { type: 'text/csv' }), 'report.csv');
  await post(adminToken, `/api/campaigns/${sourceId}/upload-report`, report);
});

async function openCampaigns(page: Page) {
  await page.goto('/campaigns');
  await page.getByRole('table', { name: 'Campaigns' }).waitFor();
}

/** Picks an action of the source campaign's row. */
async function act(page: Page, label: string) {
  const table = page.getByRole('table', { name: 'Campaigns' });
  // The source only: its clone has the same owner and count, and a name that starts alike.
  const row = campaignRow(table, user.email, COUNT).filter({
    has: page.getByText(NAME, { exact: true }),
  });
  await row.getByRole('button', { name: 'Actions' }).click();
  const menu = page.locator('.dropdown-menu.show');
  await menu.getByRole('button', { name: label, exact: true }).click();
}

const form = (page: Page) => page.getByRole('form', { name: 'Create Campaign' });

/** The form's numbers list holds exactly one entry: the copied numbers file. */
async function expectNumbersFile(f: Locator, name: string, count: number) {
  const added = f.getByLabel('Added numbers').locator('.list-group-item');
  await added.filter({ hasText: name }).getByText(`${count} numbers`, { exact: true }).waitFor();
  expect(await added.count()).toBe(1);
  await f.getByText(`Total recipients: ${count}`, { exact: true }).waitFor();
  // Nothing in the copied file but numbers: no "ignored" line for a header the form did not write.
  await f.getByText(`${ui.campaigns.recipientsIgnored}: 0`, { exact: true }).waitFor();
}

async function expectCopiedMedia(f: Locator) {
  const thumb = f.getByRole('img', { name: 'offer.png thumbnail' });
  await expect
    .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(320);
  await f.getByRole('button', { name: ui.campaigns.removeFile('offer.png') }).waitFor();
}

async function newest(token: string) {
  const list = await apiJson<CampaignList>('GET', '/api/campaigns', token);
  return list.campaigns[0];
}

describe('clone and resend', () => {
  it('Resend to failed fills exactly the failed numbers; Clone fills all; Confirm creates', async () => {
    const page = await t.page(user);
    await page.setViewportSize({ width: 1366, height: 768 });
    await openCampaigns(page);
    await act(page, 'Resend to failed');
    const f = form(page);
    await expectNumbersFile(f, `Failed numbers of ${NAME}.csv`, FAILED.length);
    expect(FAILED).toHaveLength(3);
    expect(await f.getByLabel('Campaign name').inputValue()).toBe(`${NAME} (resend)`);
    expect(await f.getByLabel('Message', { exact: true }).inputValue()).toBe(MESSAGE);
    expect(await f.getByLabel('Credit Type').inputValue()).toBe(TYPE);
    await expectCopiedMedia(f);
    const note = f.getByTestId('copied-from');
    await note.getByText(campaignCopyUi.copied(NAME)).waitFor();
    expect(await note.innerText()).toContain('3 failed numbers');
    // The form is filled and the focus is in it, on its first field.
    expect(await page.evaluate(() => document.activeElement?.closest('form')?.ariaLabel)).toBe(
      'Create Campaign',
    );
    await shot(page, 'campaign-clone-resend-failed-1366');

    // The form holds the resend now: Clone asks before replacing it.
    await act(page, 'Clone');
    const ask = page.getByRole('dialog').filter({ hasText: campaignCopyUi.replaceTitle });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(await f.getByLabel('Campaign name').inputValue()).toBe(`${NAME} (resend)`);
    await act(page, 'Clone');
    await ask.getByRole('button', { name: campaignCopyUi.replaceConfirm }).click();
    await expectNumbersFile(f, `Numbers of ${NAME}.csv`, COUNT);
    expect(await f.getByLabel('Campaign name').inputValue()).toBe(`${NAME} (copy)`);
    await expectCopiedMedia(f);
    await shot(page, 'campaign-clone-all-1366');

    await f.getByRole('button', { name: 'Create Campaign' }).click();
    const preview = page.getByRole('dialog', { name: ui.campaigns.confirmTitle });
    await preview.getByRole('button', { name: 'Confirm' }).click();
    await f.getByText(ui.campaigns.created).waitFor();
    const made = await newest(userToken);
    expect(made).toMatchObject({ name: `${NAME} (copy)`, recipientCount: COUNT, creditType: TYPE });
    expect(made?._id).not.toBe(sourceId);
    const detail = await apiJson<CampaignDetail>('GET', `/api/campaigns/${made?._id}`, userToken);
    expect(detail.message.replace(/\r\n/g, '\n')).toBe(MESSAGE);
    expect(detail.files.map((x) => [x.kind, x.name, x.mime])).toEqual([
      ['image', 'offer.png', 'image/png'],
    ]);
    expect(detail.recipients).toEqual(NUMBERS);
    // Created: the note of where the form came from is gone with the form's contents.
    await note.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('on a phone, Resend to not read unfolds the form and brings it into view', async () => {
    const page = await t.page(user);
    await page.setViewportSize({ width: 390, height: 844 });
    await openCampaigns(page);
    const f = form(page);
    // Folded behind New Campaign until the action.
    expect(await page.locator('#create-campaign-section').isVisible()).toBe(false);
    await act(page, 'Resend to not read');
    await expectNumbersFile(f, `Not-read numbers of ${NAME}.csv`, NOT_READ.length);
    expect(NOT_READ).toHaveLength(5);
    expect(await f.getByLabel('Campaign name').inputValue()).toBe(`${NAME} (resend)`);
    await expectCopiedMedia(f);
    const heading = page.getByRole('heading', { name: 'Create Campaign' });
    // The row's menu was scrolled to, below the form: the form is brought back into view.
    const top = () => heading.evaluate((h) => Math.round(h.getBoundingClientRect().top));
    await expect.poll(async () => (await top()) >= 0 && (await top()) < 844).toBe(true);
    await shot(page, 'campaign-clone-resend-not-read-390');
    // No sideways scrolling on the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.setViewportSize({ width: 1366, height: 768 });
    await shot(page, 'campaign-clone-resend-not-read-1366');
    await page.context().close();
  });

  it("a Reseller's clone keeps the campaign's owner in Campaign For", async () => {
    const page = await t.page(reseller);
    await page.setViewportSize({ width: 1366, height: 768 });
    await openCampaigns(page);
    await act(page, 'Clone');
    const f = form(page);
    await expectNumbersFile(f, `Numbers of ${NAME}.csv`, COUNT);
    const owner = f.getByRole('combobox', { name: 'Campaign For' });
    expect(await owner.inputValue()).toBe(`${user.name} (${user.email})`);
    await f.getByText('Available credits:').getByText(/\d/).waitFor();
    await shot(page, 'campaign-clone-reseller-1366');
    await page.context().close();
  });
});
