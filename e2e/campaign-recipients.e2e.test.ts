import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import {
  INVALID_ENTRIES_SHOWN,
  ui,
  type Balances,
  type CampaignDetail,
  type CampaignList,
} from '@herald/contract';
import { apiCreateUser, apiLogin, baseUrl, journey, shot } from './support/browser.js';

/**
 * Numbers as people paste them (docs/product.md, How numbers are read): a spaced number is one
 * number, the browser's count is what the server charges, and invalid entries are listed (the
 * first hundred) and downloadable (all of them).
 */

const TYPE = 'Normal Message - domestic';

async function call<T>(url: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const t = journey();

/** A fresh User with `credits` credits, its API token, and the form open in its browser. */
async function userWithForm(name: string, credits: number) {
  const account = await apiCreateUser(t.adminToken, 'User', name);
  await call('/api/credits', t.adminToken, {
    to: account.email,
    creditType: TYPE,
    count: credits,
    rate: 0.1,
    type: 'Added',
  });
  const token = (await apiLogin(account.email, account.password)).token;
  const page = await t.page(account);
  await page.goto('/campaigns');
  const form = page.getByRole('form', { name: 'Create Campaign' });
  await form.getByText(new RegExp(`Available credits: ${credits}\\b`)).waitFor();
  return { account, token, page, form };
}

/** A real paste from the clipboard into the Numbers box, as a user does it. */
async function paste(page: Page, form: Locator, text: string) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  const box = form.getByLabel('Numbers', { exact: true });
  await box.focus();
  await page.keyboard.press('ControlOrMeta+V');
  expect(await box.inputValue()).toBe(text);
}

async function submit(form: Locator, message: string) {
  await form.getByLabel('Message', { exact: true }).fill(message);
  await form.getByRole('button', { name: 'Create Campaign' }).click();
  // The preview opens first; its Confirm sends (docs/product.md, Campaigns).
  await form.page().getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await form.getByText(ui.campaigns.created).waitFor();
}

async function newest(token: string): Promise<CampaignDetail> {
  const list = await call<CampaignList>('/api/campaigns', token);
  const id = list.campaigns[0]?._id;
  if (!id) throw new Error('no campaign');
  return call<CampaignDetail>(`/api/campaigns/${id}`, token);
}

async function balance(token: string, email: string): Promise<number> {
  return (await call<Balances>('/api/credits/balances', token))[email]?.[TYPE] ?? 0;
}

describe('numbers as people paste them', () => {
  it('"+91 98765 43210" pasted is one number, and the server charges one credit', async () => {
    const { account, token, page, form } = await userWithForm('Paste One User', 3);
    await paste(page, form, '+91 98765 43210');
    const counts = form.getByTestId('recipient-counts');
    await counts.getByText('Kept: 1').waitFor();
    expect(await counts.getByText('Invalid: 0').count()).toBe(1);
    await form.getByText('Total recipients: 1').waitFor();
    expect(await form.getByRole('region', { name: 'Invalid entries' }).count()).toBe(0);
    await submit(form, 'One spaced number');
    const campaign = await newest(token);
    expect([campaign.recipientCount, campaign.recipients]).toEqual([1, ['919876543210']]);
    expect(await balance(token, account.email)).toBe(2);
    await page.context().close();
  });

  it('lists invalid entries under the count, downloads all of them, and charges what it shows', async () => {
    const { account, token, page, form } = await userWithForm('Paste Invalid User', 10);
    // A WhatsApp copy, a US contact, a leading 0 written apart, two full numbers on one line,
    // then 150 entries too short to be numbers (pieces that together stay short).
    const invalid = Array.from({ length: 150 }, (_, i) => `${100 + i} ${i % 10}`);
    const text = [
      '+91 98765 43210',
      '(987) 654-3212',
      '098765 43210',
      '9123456780 9123456781',
      ...invalid,
    ].join('\n');
    await paste(page, form, text);
    const counts = form.getByTestId('recipient-counts');
    await counts.getByText('Kept: 5').waitFor();
    expect(await counts.getByText('Invalid: 150').count()).toBe(1);
    await form.getByText('Total recipients: 5').waitFor();

    const list = form.getByRole('region', { name: 'Invalid entries' });
    await list.getByText(ui.campaigns.invalidEntriesTitle(INVALID_ENTRIES_SHOWN, 150)).waitFor();
    const items = list.getByRole('listitem');
    expect(await items.count()).toBe(INVALID_ENTRIES_SHOWN);
    expect(await items.first().innerText()).toBe(`100 0\n${ui.campaigns.invalidEntryReason(4)}`);
    expect(await items.last().locator('code').innerText()).toBe(invalid[99]);

    for (const [width, name] of [
      [1366, 'campaign-create-invalid-entries-1366'],
      [390, 'campaign-create-invalid-entries-390'],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      // On a phone the create form is folded away until asked for.
      if (width === 390) await page.getByRole('button', { name: 'New Campaign' }).click();
      await list.scrollIntoViewIfNeeded();
      await shot(page, name);
    }
    // No sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );

    const download = page.waitForEvent('download');
    await list.getByRole('button', { name: ui.campaigns.invalidEntriesDownload(150) }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(ui.campaigns.invalidEntriesFile);
    expect(fs.readFileSync(await file.path(), 'utf8')).toBe(invalid.join('\n') + '\n');

    await submit(form, 'Pasted from everywhere');
    const campaign = await newest(token);
    expect(campaign.recipientCount).toBe(5);
    // The detail lists recipients in number (text) order.
    expect(campaign.recipients).toEqual([
      '09876543210',
      '9123456780',
      '9123456781',
      '919876543210',
      '9876543212',
    ]);
    expect(await balance(token, account.email)).toBe(5);
    await page.context().close();
  });
});
