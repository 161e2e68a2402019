import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ui, type CampaignList } from '@herald/contract';
import {
  apiBalance,
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  journey,
  shot,
} from './support/browser.js';
import { png, pngFile } from './support/png.js';

/** Cost, preview and confirm on the Create Campaign form (docs/product.md, Campaigns). */

type Account = { email: string; password: string; name: string };
let user: Account;
let token: string;

const t = journey(async (adminToken) => {
  const reseller = await apiCreateUser(adminToken, 'Reseller', 'Confirm Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  user = await apiCreateUser(resellerToken, 'User', 'Confirm User');
  token = (await apiLogin(user.email, user.password)).token;
  await apiGiveCredits(adminToken, user.email, 'Normal Message - domestic', 50);
  await apiGiveCredits(adminToken, user.email, 'With DP & CTA - domestic', 10);
});

async function openForm(page: Page): Promise<Locator> {
  await page.goto('/campaigns');
  const form = page.getByRole('form', { name: 'Create Campaign' });
  await form.waitFor();
  return form;
}

/** Screenshots at 1366 and 390 px; on a phone the create form is unfolded first (unless a
 * dialog is open over it). */
async function shotWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1366, height: 768 });
  await shot(page, `${name}-1366`);
  await page.setViewportSize({ width: 390, height: 844 });
  const unfold = page.getByRole('button', { name: 'New Campaign' });
  const dialogOpen = (await page.getByRole('dialog').count()) > 0;
  if (!dialogOpen && (await unfold.isVisible())) await unfold.click();
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const numbers = (count: number, from: number) =>
  Array.from({ length: count }, (_, i) => String(from + i)).join('\n');

async function newest() {
  const list = await apiJson<CampaignList>('GET', '/api/campaigns', token);
  return list.campaigns[0];
}

describe('cost, preview and confirm', () => {
  it('previews image, text and buttons; Back keeps the form; Confirm creates it', async () => {
    const page = await t.page(user);
    const form = await openForm(page);
    await form.getByLabel('Credit Type').selectOption('With DP & CTA - domestic');
    await form.getByText(ui.campaigns.typeExplainCta).waitFor();
    await form.getByLabel('DP Image').setInputFiles(pngFile('logo.png', 200, 200));
    await form.getByLabel('Single Creative').setInputFiles(pngFile('offer.png', 320, 180));
    await form.getByRole('img', { name: 'offer.png thumbnail' }).waitFor();
    await form.getByLabel('Call Button Text').fill('Call us');
    await form.getByLabel('Call Number').fill('18001234567');
    await form.getByLabel('URL Button Text').fill('Open offer');
    await form.getByLabel('URL Link').fill('https://herald.example/offer');
    await form.getByLabel('Campaign name').fill('Festival sale');
    const message = 'Festival sale!\n\nDetails at https://herald.example/sale.\n<b>not bold</b>';
    await form.getByLabel('Message', { exact: true }).fill(message);
    await form.getByTestId('message-counter').getByText(`${message.length} / 4096`).waitFor();
    await form.getByLabel('Numbers', { exact: true }).fill('9810000001\n9810000002');
    await form.getByText('Total recipients: 2').waitFor();
    await form.getByText('Uses 2 With DP & CTA - domestic credits; 8 left after').waitFor();

    await form.getByRole('button', { name: 'Create Campaign' }).click();
    const dialog = page.getByRole('dialog', { name: ui.campaigns.confirmTitle });
    await dialog.waitFor();
    const preview = dialog.getByRole('region', { name: 'Message preview' });
    await preview.getByRole('img', { name: 'DP' }).waitFor();
    const creative = preview.getByRole('img', { name: 'offer.png' });
    await expect
      .poll(() => creative.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(320);
    // Line breaks kept (the blank line too), the link clickable, the markup shown as text.
    const lines = await preview.getByTestId('preview-text').locator(':scope > div').allInnerTexts();
    expect(lines.map((l) => l.trim())).toEqual([
      'Festival sale!',
      '',
      'Details at https://herald.example/sale.',
      '<b>not bold</b>',
    ]);
    const link = preview.getByRole('link', { name: 'https://herald.example/sale' });
    expect(await link.getAttribute('href')).toBe('https://herald.example/sale');
    expect(await preview.locator('b').count()).toBe(0);
    await preview.getByText('Call us').waitFor();
    await preview.getByText('Open offer').waitFor();
    await dialog.getByText('Festival sale', { exact: true }).waitFor();
    await dialog.getByText('2 With DP & CTA - domestic credits').waitFor();
    await shotWidths(page, 'campaign-confirm-preview');
    // On a phone the dialog fits the width: no sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    const width = await dialog.locator('.modal-dialog').evaluate((d) => d.getBoundingClientRect());
    expect(width.left).toBeGreaterThanOrEqual(0);
    expect(width.right).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });

    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await form.getByLabel('Message', { exact: true }).inputValue()).toBe(message);
    expect(await form.getByLabel('Campaign name').inputValue()).toBe('Festival sale');
    await form.getByText('Total recipients: 2').waitFor();
    await form.getByRole('img', { name: 'offer.png thumbnail' }).waitFor();
    expect(await newest()).toBeUndefined();

    await form.getByRole('button', { name: 'Create Campaign' }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await form.getByText(ui.campaigns.created).waitFor();
    const c = await newest();
    expect(c).toMatchObject({ name: 'Festival sale', recipientCount: 2 });
    // The multipart body carries line breaks as CRLF; the text is the one typed.
    expect(c?.message.replace(/\r\n/g, '\n')).toBe(message);
    expect(await apiBalance(token, user.email, 'With DP & CTA - domestic')).toBe(8);
    await page.context().close();
  });

  it('previews a chosen video from its blob: URL, which the page policy allows', async () => {
    const page = await t.page(user);
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('Content Security Policy')) blocked.push(m.text());
    });
    const form = await openForm(page);
    await form.getByLabel('Message', { exact: true }).fill('A clip');
    await form.getByLabel('Numbers', { exact: true }).fill('9850000001');
    await form.getByText('Total recipients: 1').waitFor();
    await form.getByLabel('Video (mp4)').setInputFiles({
      name: 'clip.mp4',
      mimeType: 'video/mp4',
      buffer: Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom', 'latin1')]),
    });
    await form.getByText(/clip\.mp4/).waitFor();
    await form.getByRole('button', { name: 'Create Campaign' }).click();
    const dialog = page.getByRole('dialog', { name: ui.campaigns.confirmTitle });
    const video = dialog.locator('video');
    await video.waitFor();
    expect(await video.getAttribute('src')).toMatch(/^blob:/);
    await page.waitForTimeout(300);
    expect(blocked).toEqual([]);
    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('keeps a half-filled form over a refresh, and says files must be chosen again', async () => {
    const page = await t.page(user);
    let form = await openForm(page);
    await form.getByLabel('Campaign name').fill('Half done');
    await form.getByLabel('Message', { exact: true }).fill('Line one\nLine two');
    await form.getByLabel('Numbers', { exact: true }).fill('9820000001, 9820000002');
    await form.getByText('Total recipients: 2').waitFor();
    await form.getByLabel('Images (up to 3)').setInputFiles(pngFile('gone.png', 20, 20));
    expect(await form.getByText(ui.campaigns.draftRestored).count()).toBe(0);
    await page.reload();
    form = await openForm(page);
    await form.getByText(ui.campaigns.draftRestored).waitFor();
    expect(await form.getByLabel('Campaign name').inputValue()).toBe('Half done');
    expect(await form.getByLabel('Message', { exact: true }).inputValue()).toBe(
      'Line one\nLine two',
    );
    expect(await form.getByLabel('Numbers', { exact: true }).inputValue()).toBe(
      '9820000001, 9820000002',
    );
    await form.getByText('Total recipients: 2').waitFor();
    expect(await form.getByText(/gone\.png/).count()).toBe(0);
    await shotWidths(page, 'campaign-confirm-restored');
    // Created: the draft goes, a refresh shows an empty form.
    await form.getByRole('button', { name: 'Create Campaign' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await form.getByText(ui.campaigns.created).waitFor();
    await page.reload();
    form = await openForm(page);
    await form.getByText('Total recipients: 0').waitFor();
    expect(await form.getByLabel('Message', { exact: true }).inputValue()).toBe('');
    expect(await form.getByText(ui.campaigns.draftRestored).count()).toBe(0);
    await page.context().close();
  });

  it('shows the cost, the shortfall, and the types without credits disabled', async () => {
    const buyer = await apiCreateUser(t.adminToken, 'User', 'Cost User');
    await apiGiveCredits(t.adminToken, buyer.email, 'Normal Message - domestic', 150);
    await apiGiveCredits(t.adminToken, buyer.email, 'With CTA - international', 40);
    const page = await t.page(buyer);
    const form = await openForm(page);
    const type = form.getByLabel('Credit Type');
    const option = (label: string) => type.locator('option', { hasText: label });
    expect(await option('With DP - domestic (0)').isDisabled()).toBe(true);
    expect(await option('With CTA - international (40)').isDisabled()).toBe(false);
    await form.getByLabel('Numbers', { exact: true }).fill(numbers(30, 9830000000));
    await form.getByText('Uses 30 Normal Message - domestic credits; 120 left after').waitFor();
    await type.selectOption('With CTA - international');
    await form.getByLabel('Numbers', { exact: true }).fill(numbers(42, 9830000000));
    await form.getByText(ui.campaigns.insufficientCredits).waitFor();
    await form.getByText('Needs 42, you have 40').waitFor();
    expect(await form.getByTestId('campaign-cost').count()).toBe(0);
    expect(await form.getByRole('button', { name: 'Create Campaign' }).isDisabled()).toBe(true);
    // Past the message limit the counter turns invalid before any submit.
    const box = form.getByLabel('Message', { exact: true });
    await box.fill('x'.repeat(4097));
    await form.getByText('4097 / 4096').waitFor();
    expect(await box.getAttribute('class')).toContain('is-invalid');
    await shotWidths(page, 'campaign-confirm-shortfall');
    await page.context().close();
  });

  it('removes a numbers file with its numbers; a refused file blocks until removed', async () => {
    const page = await t.page(user);
    const form = await openForm(page);
    await form.getByLabel('Numbers', { exact: true }).fill('9840000001');
    await form.getByText('Total recipients: 1').waitFor();
    await form.getByLabel('Upload Numbers File').setInputFiles({
      name: 'list.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('9840000001\n9840000002\n9840000003\n'),
    });
    await form.getByText('Total recipients: 3').waitFor();
    await form.getByRole('button', { name: ui.campaigns.removeFile('list.csv') }).click();
    // The typed number stays: only the file's own numbers go.
    await form.getByText('Total recipients: 1').waitFor();

    await form.getByLabel('Message', { exact: true }).fill('With a refused image');
    const images = form.getByLabel('Images (up to 3)');
    const big = Buffer.concat([png(10, 10), Buffer.alloc(3 * 1024 * 1024)]);
    await images.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await form.getByText(ui.campaigns.fileTooLarge(3)).waitFor();
    await form.getByText(ui.campaigns.fileRejectedBlocks).waitFor();
    const submit = form.getByRole('button', { name: 'Create Campaign' });
    expect(await submit.isDisabled()).toBe(true);
    await shotWidths(page, 'campaign-confirm-refused-file');
    await form.getByRole('button', { name: ui.campaigns.removeFile('big.png') }).click();
    expect(await form.getByText(ui.campaigns.fileTooLarge(3)).count()).toBe(0);
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await shot(page, 'campaign-confirm-removed');
    await page.context().close();
  });
});
