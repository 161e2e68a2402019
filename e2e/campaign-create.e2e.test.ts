import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ui, type Balances, type CampaignList, type CreditType } from '@herald/contract';
import { writeXlsx } from '../apps/web/test/zip-fixture.js';
import { apiCreateUser, apiLogin, baseUrl, journey, shot } from './support/browser.js';
import { png, pngFile } from './support/png.js';
import { pickSearchOption } from './support/search-select.js';

type Account = { email: string; password: string; name: string };

let reseller: Account;
let user: Account;
let userToken: string;
let resellerToken: string;

async function call<T>(method: string, url: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

function giveCredits(to: string, creditType: CreditType, count: number) {
  return call('POST', '/api/credits', t.adminToken, {
    to,
    creditType,
    count,
    rate: 0.1,
    type: 'Added',
  });
}

async function balance(token: string, email: string, type: CreditType): Promise<number> {
  const all = await call<Balances>('GET', '/api/credits/balances', token);
  return all[email]?.[type] ?? 0;
}

async function newestCampaign(token: string) {
  const list = await call<CampaignList>('GET', '/api/campaigns', token);
  const first = list.campaigns[0];
  if (!first) throw new Error('no campaign');
  return first;
}

const t = journey(async (adminToken) => {
  reseller = await apiCreateUser(adminToken, 'Reseller', 'Camp Reseller');
  resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  user = await apiCreateUser(resellerToken, 'User', 'Camp User');
  userToken = (await apiLogin(user.email, user.password)).token;
  await giveCredits(user.email, 'Normal Message - domestic', 50);
  await giveCredits(user.email, 'With DP - domestic', 10);
  await giveCredits(user.email, 'With CTA - domestic', 10);
  await giveCredits(user.email, 'Normal Message - international', 10);
  await giveCredits(user.email, 'With DP - international', 2);
});

async function openForm(account: Account): Promise<{ page: Page; form: Locator }> {
  const page = await t.page(account);
  await page.goto('/campaigns');
  const form = page.getByRole('form', { name: 'Create Campaign' });
  await form.waitFor();
  return { page, form };
}

/** Typed numbers count by themselves, parsed as the box changes: there is nothing to click. */
async function typeNumbers(form: Locator, text: string) {
  await form.getByLabel('Numbers', { exact: true }).fill(text);
}

function counts(form: Locator) {
  return form.getByTestId('recipient-counts');
}

/** 'Create Campaign' opens the preview; its Confirm sends. */
async function createAndConfirm(form: Locator) {
  await form.getByRole('button', { name: 'Create Campaign' }).click();
  const dialog = form.page().getByRole('dialog', { name: ui.campaigns.confirmTitle });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

async function submitAndWait(form: Locator) {
  await createAndConfirm(form);
  await form.getByText(ui.campaigns.created).waitFor();
}

describe('create campaign as a User', () => {
  it('a plain campaign with an image, sending an Idempotency-Key', async () => {
    const { page, form } = await openForm(user);
    expect(await form.getByLabel('Campaign For').count()).toBe(0);
    await form.getByText(/Available credits: 50\b/).waitFor();
    const keys: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/campaigns')) {
        keys.push(r.headers()['idempotency-key'] ?? '');
      }
    });

    await form.getByLabel('Message', { exact: true }).fill('Hello from the e2e test');
    // No name given: the placeholder shows the one the campaign will get, its message's words.
    expect(await form.getByLabel('Campaign name').getAttribute('placeholder')).toBe(
      'Hello from the e2e test',
    );
    await typeNumbers(form, '9876543210, 9876543211 9876543210; abc');
    await counts(form).getByText('Kept: 2').waitFor();
    // 'abc' is not a number: ignored, not invalid (docs/product.md, Campaigns).
    await counts(form).getByText('Invalid: 0').waitFor();
    await counts(form).getByText('Ignored (not a number): 1').waitFor();
    await counts(form).getByText('Duplicates: 1').waitFor();
    await form.getByText('Total recipients: 2').waitFor();
    // The box keeps what was typed: editing it changes the count.
    expect(await form.getByLabel('Numbers', { exact: true }).inputValue()).toBe(
      '9876543210, 9876543211 9876543210; abc',
    );

    // Too large: refused with the contract's message, not kept.
    const big = Buffer.concat([png(10, 10), Buffer.alloc(3 * 1024 * 1024)]);
    const images = form.getByLabel('Images (up to 3)');
    await images.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await form.getByText(ui.campaigns.fileTooLarge(3)).waitFor();
    await images.setInputFiles(pngFile('banner.png', 64, 32));
    await form.getByText(/banner\.png/).waitFor();
    expect(await form.getByText(ui.campaigns.fileTooLarge(3)).count()).toBe(0);
    await shot(page, 'campaign-create-plain');

    await submitAndWait(form);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    const c = await newestCampaign(userToken);
    expect([c.creditType, c.recipientCount, c.message, c.name]).toEqual([
      'Normal Message - domestic',
      2,
      'Hello from the e2e test',
      'Hello from the e2e test',
    ]);
    expect(await balance(userToken, user.email, 'Normal Message - domestic')).toBe(48);
    await form.getByText(/Available credits: 48\b/).waitFor();
    expect(await form.getByLabel('Message', { exact: true }).inputValue()).toBe('');
    expect(await form.getByLabel('Numbers', { exact: true }).inputValue()).toBe('');
    await form.getByText('Total recipients: 0').waitFor();
    await shot(page, 'campaign-create-plain-done');
    await page.context().close();
  });

  it('a DP campaign: checks the DP dimensions in the browser', async () => {
    const { page, form } = await openForm(user);
    await form.getByLabel('Credit Type').selectOption('With DP - domestic');
    await form.getByText(/Available credits: 10\b/).waitFor();
    expect(await form.getByLabel('PDF').count()).toBe(1);
    const dp = form.getByLabel('DP Image');
    await dp.setInputFiles(pngFile('small.png', 100, 100));
    await form.getByText(ui.campaigns.dpDimensions).waitFor();
    await dp.setInputFiles(pngFile('dp.png', 200, 200));
    await form.getByText(/dp\.png/).waitFor();
    expect(await form.getByText(ui.campaigns.dpDimensions).count()).toBe(0);
    await form.getByLabel('Message', { exact: true }).fill('DP message');
    await form.getByLabel('Campaign name').fill('x'.repeat(81));
    await typeNumbers(form, '9123456780\n9123456781\n9123456782');
    await form.getByText('Total recipients: 3').waitFor();
    await form.getByRole('button', { name: 'Create Campaign' }).click();
    await form.getByText('Campaign name must be at most 80 characters.').waitFor();
    // The refused field takes the focus, marked invalid (docs/product.md, Accessibility).
    const name = form.getByLabel('Campaign name');
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-invalid') === 'true',
    );
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
    await name.fill('Diwali offer');
    await shot(page, 'campaign-create-dp');
    await submitAndWait(form);
    const c = await newestCampaign(userToken);
    expect([c.creditType, c.recipientCount, c.name]).toEqual([
      'With DP - domestic',
      3,
      'Diwali offer',
    ]);
    // The list names it as the row's first line.
    await page.getByRole('row').filter({ hasText: 'Diwali offer' }).first().waitFor();
    const detail = await call<{ files: { kind: string; name: string }[] }>(
      'GET',
      `/api/campaigns/${c._id}`,
      userToken,
    );
    expect(detail.files.map((f) => [f.kind, f.name])).toEqual([['dp', 'dp.png']]);
    expect(await balance(userToken, user.email, 'With DP - domestic')).toBe(7);
    await page.context().close();
  });

  it('a CTA campaign: one single creative and the buttons, no pdf/video/audio', async () => {
    const { page, form } = await openForm(user);
    await form.getByLabel('Credit Type').selectOption('With CTA - domestic');
    for (const label of ['PDF', 'Audio', 'Video (mp4)', 'Images (up to 3)', 'DP Image']) {
      expect(await form.getByLabel(label).count()).toBe(0);
    }
    await form.getByLabel('Single Creative').setInputFiles({
      name: 'offer.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
    });
    await form.getByText(/offer\.pdf/).waitFor();
    await form.getByLabel('Call Button Text').fill('Call us');
    await form.getByLabel('Call Number').fill('18001234567');
    await form.getByLabel('URL Button Text').fill('Open offer');
    await form.getByLabel('URL Link').fill('https://herald.example/offer');
    await form.getByLabel('Message', { exact: true }).fill('CTA message');
    await typeNumbers(form, '9000000001 9000000002');
    await shot(page, 'campaign-create-cta');
    await submitAndWait(form);
    const c = await newestCampaign(userToken);
    expect(c).toMatchObject({
      creditType: 'With CTA - domestic',
      recipientCount: 2,
      ctaCall: '18001234567',
      ctaCallText: 'Call us',
      ctaURL: 'https://herald.example/offer',
      ctaURLText: 'Open offer',
    });
    expect(await balance(userToken, user.email, 'With CTA - domestic')).toBe(8);
    await page.context().close();
  });

  it('an international campaign needs country name and code', async () => {
    const { page, form } = await openForm(user);
    await form.getByLabel('Credit Type').selectOption('Normal Message - international');
    await form.getByLabel('Message', { exact: true }).fill('Hello abroad');
    await typeNumbers(form, '447700900123');
    // Clicked within the debounce: the typed number is parsed first, then the form is checked.
    await form.getByRole('button', { name: 'Create Campaign' }).click();
    await form.getByText(ui.campaigns.countryRequired).first().waitFor();
    expect(await form.getByText(ui.campaigns.countryRequired).count()).toBe(2);
    await shot(page, 'campaign-create-international-errors');
    await form.getByLabel('Country Name').fill('United Kingdom');
    await form.getByLabel('Country Code').fill('+44');
    await submitAndWait(form);
    const c = await newestCampaign(userToken);
    expect(c).toMatchObject({
      creditType: 'Normal Message - international',
      countryName: 'United Kingdom',
      countryCode: '+44',
      recipientCount: 1,
    });
    await page.context().close();
  });

  it('refuses more recipients than credits and an empty list', async () => {
    const { page, form } = await openForm(user);
    await form.getByLabel('Credit Type').selectOption('With DP - international');
    await form.getByText(/Available credits: 2\b/).waitFor();
    await form.getByLabel('Message', { exact: true }).fill('Too many');
    await form.getByLabel('Country Name').fill('India');
    await form.getByLabel('Country Code').fill('+91');
    const submit = form.getByRole('button', { name: 'Create Campaign' });
    await submit.click();
    await form.getByText(ui.campaigns.noRecipients).waitFor();
    await typeNumbers(form, '9111111111 9111111112 9111111113');
    await form.getByText(ui.campaigns.insufficientCredits).waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await shot(page, 'campaign-create-insufficient');
    await form.getByRole('button', { name: 'Clear' }).click();
    await form.getByText('Total recipients: 0').waitFor();
    expect(await submit.isDisabled()).toBe(false);
    expect(await form.getByText(ui.campaigns.insufficientCredits).count()).toBe(0);
    await page.context().close();
  });

  it('reads recipients from .csv and .xlsx files, deduplicated', async () => {
    const { page, form } = await openForm(user);
    const file = form.getByLabel('Upload Numbers File');
    await file.setInputFiles({
      name: 'numbers.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('phone\r\n9800000001\r\n9800000002\r\n9800000001\r\n12\r\n'),
    });
    await counts(form).getByText('Kept: 2').waitFor();
    // The header 'phone' is not a number; 12 is an invalid number.
    await counts(form).getByText('Invalid: 1').waitFor();
    await counts(form).getByText('Ignored (not a number): 1').waitFor();
    await counts(form).getByText('Duplicates: 1').waitFor();
    await form.getByText('Total recipients: 2').waitFor();
    // The invalid cell is listed as written, with its reason.
    const invalidList = form.getByRole('region', { name: 'Invalid entries' });
    expect(await invalidList.getByRole('listitem').allInnerTexts()).toEqual([
      `12\n${ui.campaigns.invalidEntryReason(2)}`,
    ]);
    const xlsx = await writeXlsx([[['Mobile'], [9800000002], [9800000003], ['9800000004']]]);
    await file.setInputFiles({
      name: 'numbers.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(xlsx),
    });
    await counts(form).getByText('Kept: 2').waitFor();
    await counts(form).getByText('Duplicates: 1').waitFor();
    await form.getByText('Total recipients: 4').waitFor();
    // The header 'Mobile' is not a number; no cell is an invalid number.
    await counts(form).getByText('Invalid: 0').waitFor();
    await counts(form).getByText('Ignored (not a number): 1').waitFor();
    expect(await invalidList.count()).toBe(0);
    await shot(page, 'campaign-create-ignored');
    await file.setInputFiles({
      name: 'broken.xlsx',
      mimeType: 'text/plain',
      buffer: Buffer.from('no'),
    });
    await form.getByText(ui.campaigns.fileUnreadable).waitFor();
    await form.getByLabel('Message', { exact: true }).fill('From files');
    // The unreadable file stays listed and blocks the campaign until it is removed.
    const submit = form.getByRole('button', { name: 'Create Campaign' });
    await form.getByText(ui.campaigns.fileRejectedBlocks).waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await shot(page, 'campaign-create-files');
    await form.getByRole('button', { name: ui.campaigns.removeFile('broken.xlsx') }).click();
    expect(await form.getByText(ui.campaigns.fileUnreadable).count()).toBe(0);
    await form.getByText('Total recipients: 4').waitFor();
    await submitAndWait(form);
    const c = await newestCampaign(userToken);
    expect([c.message, c.recipientCount]).toEqual(['From files', 4]);
    expect(await balance(userToken, user.email, 'Normal Message - domestic')).toBe(44);
    await page.context().close();
  });
});

describe('the recipient count is live', () => {
  it('pasting more numbers than credits disables Create Campaign at once, with the reason', async () => {
    const fresh = await apiCreateUser(resellerToken, 'User', 'Live Count User');
    await giveCredits(fresh.email, 'Normal Message - domestic', 5);
    const { page, form } = await openForm(fresh);
    await form.getByText(/Available credits: 5\b/).waitFor();
    await form.getByLabel('Message', { exact: true }).fill('Six numbers, five credits');
    const submit = form.getByRole('button', { name: 'Create Campaign' });
    expect(await submit.isEnabled()).toBe(true);
    expect(await form.getByRole('button', { name: 'Add Numbers' }).count()).toBe(0);

    // A real paste from the clipboard, as a user does it.
    const numbers = ['9300000001', '9300000002', '9300000003', '9300000004', '9300000005'];
    const six = [...numbers, '9300000006'].join('\n');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.evaluate((text) => navigator.clipboard.writeText(text), six);
    const box = form.getByLabel('Numbers', { exact: true });
    await box.focus();
    await page.keyboard.press('ControlOrMeta+V');
    expect(await box.inputValue()).toBe(six);
    await form.getByText('Total recipients: 6').waitFor();
    await form.getByText(ui.campaigns.insufficientCredits).waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await shot(page, 'campaign-create-live-count');

    // Taking one number out counts again by itself, and the campaign can go.
    await box.fill(numbers.join('\n'));
    await form.getByText('Total recipients: 5').waitFor();
    await expect.poll(() => submit.isEnabled()).toBe(true);
    expect(await form.getByText(ui.campaigns.insufficientCredits).count()).toBe(0);
    await submitAndWait(form);
    const token = (await apiLogin(fresh.email, fresh.password)).token;
    expect((await newestCampaign(token)).recipientCount).toBe(5);
    expect(await balance(token, fresh.email, 'Normal Message - domestic')).toBe(0);
    await page.context().close();
  });
});

describe('create campaign as a Reseller', () => {
  it('creates for one of its users, debiting that user', async () => {
    const { page, form } = await openForm(reseller);
    const picker = form.getByRole('combobox', { name: 'Campaign For' });
    await expect.poll(() => picker.inputValue()).toBe(`${reseller.name} (Self)`);
    await form.getByText(/Available credits: 0\b/).waitFor();
    await pickSearchOption(form, 'Campaign For', user.name, `${user.name} (${user.email})`);
    const before = await balance(userToken, user.email, 'Normal Message - domestic');
    await form.getByText(new RegExp(`Available credits: ${before}\\b`)).waitFor();
    await form.getByLabel('Message', { exact: true }).fill('Sent for my user');
    await typeNumbers(form, '9700000001 9700000002 9700000003');
    await shot(page, 'campaign-create-reseller');
    await submitAndWait(form);
    const c = await newestCampaign(resellerToken);
    expect(c).toMatchObject({
      userEmail: user.email,
      createdBy: reseller.email,
      recipientCount: 3,
      message: 'Sent for my user',
    });
    expect(await balance(userToken, user.email, 'Normal Message - domestic')).toBe(before - 3);
    await form.getByText(new RegExp(`Available credits: ${before - 3}\\b`)).waitFor();
    await page.context().close();
  });
});

describe('large lists, slow and lost uploads', () => {
  it('retries with the same Idempotency-Key after a lost answer, creating one campaign', async () => {
    const { page, form } = await openForm(user);
    const before = await balance(userToken, user.email, 'Normal Message - domestic');
    const listed = async () =>
      (await call<CampaignList>('GET', '/api/campaigns', userToken)).campaigns.length;
    const countBefore = await listed();
    const keys: string[] = [];
    await page.route('**/api/campaigns', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (keys.length > 1) return route.fallback();
      // The server creates the campaign, but its answer never reaches the page.
      await route.fetch();
      return route.abort('connectionreset');
    });
    await form.getByLabel('Message', { exact: true }).fill('Lost answer');
    await typeNumbers(form, '9500000001 9500000002');
    await createAndConfirm(form);
    await form.getByText(ui.campaigns.createFailed).waitFor();
    expect(await listed()).toBe(countBefore + 1);
    await shot(page, 'campaign-create-lost-answer');
    await submitAndWait(form);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await listed()).toBe(countBefore + 1);
    expect(await balance(userToken, user.email, 'Normal Message - domestic')).toBe(before - 2);
    await page.context().close();
  });

  it('shows upload progress while a video uploads', async () => {
    const { page, form } = await openForm(user);
    await form.getByLabel('Message', { exact: true }).fill('With a video');
    await typeNumbers(form, '9600000001');
    const mp4 = Buffer.concat([
      Buffer.from([0, 0, 0, 0x20]),
      Buffer.from('ftypisom', 'latin1'),
      Buffer.alloc(2 * 1024 * 1024),
    ]);
    await form.getByLabel('Video (mp4)').setInputFiles({
      name: 'clip.mp4',
      mimeType: 'video/mp4',
      buffer: mp4,
    });
    await form.getByText(/clip\.mp4/).waitFor();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });
    await createAndConfirm(form);
    const bar = form.getByRole('progressbar');
    await bar.waitFor();
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')))
      .toBeGreaterThan(0);
    expect(await form.getByRole('button', { name: 'Create Campaign' }).isDisabled()).toBe(true);
    await shot(page, 'campaign-create-progress');
    await form.getByText(ui.campaigns.created).waitFor({ timeout: 30_000 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    expect(await bar.count()).toBe(0);
    await page.context().close();
  });

  it('takes 1,000,000 numbers from a file and sends them without freezing the page', async () => {
    const bulk = await apiCreateUser(resellerToken, 'User', 'Bulk User');
    const bulkToken = (await apiLogin(bulk.email, bulk.password)).token;
    await giveCredits(bulk.email, 'Normal Message - domestic', 1_000_000);
    const lines: string[] = [];
    for (let i = 0; i < 1_000_000; i++) lines.push(String(9_100_000_000 + i));
    const csv = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-e2e-csv-')), 'million.csv');
    // From a path, not a buffer: Playwright would decode a buffer on the page's main thread.
    fs.writeFileSync(csv, lines.join('\n'));
    const { page, form } = await openForm(bulk);
    await form.getByText(/Available credits: 1,000,000\b/).waitFor();
    const watchLongTasks = () =>
      page.evaluate(() => {
        const w = window as unknown as { longTasks: number[]; observer?: PerformanceObserver };
        w.longTasks = [];
        w.observer?.disconnect();
        w.observer = new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.longTasks.push(e.duration);
        });
        w.observer.observe({ type: 'longtask' });
      });
    const longestTask = () =>
      page.evaluate(() => Math.max(0, ...(window as unknown as { longTasks: number[] }).longTasks));
    const fileInput = form.getByLabel('Upload Numbers File');

    await watchLongTasks();
    await fileInput.setInputFiles(csv);
    await form.getByText('Total recipients: 1,000,000').waitFor({ timeout: 30_000 });
    await counts(form).getByText('Kept: 1,000,000').waitFor();
    const parsing = await longestTask();

    // A long paste goes straight to the parser; the box stays empty. Past 1,000,000: blocked.
    await page.evaluate(() => {
      const box = document.getElementById('campaign-numbers') as HTMLTextAreaElement;
      const nums: string[] = [];
      for (let i = 0; i < 100_000; i++) nums.push(String(9_200_000_000 + i));
      const data = new DataTransfer();
      data.setData('text/plain', nums.join('\n'));
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    });
    await form.getByText('Total recipients: 1,100,000').waitFor({ timeout: 30_000 });
    expect(await form.getByLabel('Numbers', { exact: true }).inputValue()).toBe('');
    await form.getByText('A campaign can have at most 1,000,000 recipients.').waitFor();
    const submit = form.getByRole('button', { name: 'Create Campaign' });
    expect(await submit.isDisabled()).toBe(true);
    await shot(page, 'campaign-create-million');

    await form.getByRole('button', { name: 'Clear' }).click();
    await fileInput.setInputFiles(csv);
    await form.getByText('Total recipients: 1,000,000').waitFor({ timeout: 30_000 });
    await form.getByLabel('Message', { exact: true }).fill('A million');
    await watchLongTasks();
    await createAndConfirm(form);
    await form.getByText(ui.campaigns.created).waitFor({ timeout: 150_000 });
    const sending = await longestTask();
    console.log(`longest main-thread task: parsing ${parsing} ms, sending ${sending} ms`);
    // Shared CI cores: slack over the 50 ms target, but never a multi-second freeze.
    expect(parsing).toBeLessThan(200);
    expect(sending).toBeLessThan(200);
    const c = await newestCampaign(bulkToken);
    expect([c.message, c.recipientCount]).toEqual(['A million', 1_000_000]);
    expect(await balance(bulkToken, bulk.email, 'Normal Message - domestic')).toBe(0);
    await page.context().close();
    fs.rmSync(path.dirname(csv), { recursive: true, force: true });
  }, 240_000);
});
