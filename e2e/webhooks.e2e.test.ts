import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import {
  LOW_BALANCE_THRESHOLD_MAX,
  server as msg,
  ui,
  WebhookPayloadSchema,
} from '@herald/contract';
import { apiCreateUser, apiJson, apiLogin, journey, shot } from './support/browser.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

/**
 * The Webhooks section of API & Webhooks (docs/api.md, Webhooks): a User makes an API key and
 * copies it once, adds an endpoint on a loopback receiver, copies its signing secret once, sends
 * the test event and sees it delivered (200) in the endpoint's log, while the receiver verifies
 * the signature with `standardwebhooks`; then rotates the secret (the next call is signed with
 * the new one), disables and enables, edits, sets the low-balance alert and deletes. An endpoint
 * answering 410 shows as disabled for that reason.
 */

type Account = { email: string; password: string; name: string; id: string };
let user: Account;
let userToken = '';
let receiver: WebhookReceiver;
const k = ui.apiKeys;
const w = ui.webhooks;

const t = journey(async (adminToken) => {
  receiver = await startWebhookReceiver((path) => (path === '/gone' ? 410 : 200));
  user = await apiCreateUser(adminToken, 'User', 'Hook User');
  userToken = (await apiLogin(user.email, user.password)).token;
});
afterAll(() => receiver?.close());

const endpoints = (page: Page) => page.getByRole('table', { name: w.listLabel });
const endpointRow = (page: Page, url: string) =>
  endpoints(page).getByRole('row').filter({ hasText: url });
const deliveries = (page: Page) => page.getByRole('table', { name: w.deliveriesLabel });

async function rowAction(page: Page, url: string, action: string) {
  await endpointRow(page, url).getByRole('button', { name: 'Actions' }).click();
  await page.locator('.dropdown-menu.show').getByRole('button', { name: action }).click();
}

/** The secret dialog's value, copied with its button (the clipboard checked), then put away. */
async function copySecretOnce(page: Page): Promise<string> {
  const dialog = page.getByRole('dialog', { name: w.secretTitle });
  const field = dialog.getByRole('textbox', { name: w.secretLabel });
  const secret = await field.inputValue();
  expect(secret).toMatch(/^whsec_/);
  await dialog.getByRole('button', { name: k.copyButton }).click();
  await dialog.getByRole('button', { name: k.copied }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  return secret;
}

async function doneWithSecret(page: Page, secret: string) {
  const dialog = page.getByRole('dialog', { name: w.secretTitle });
  await dialog.getByRole('button', { name: k.secretDone }).click();
  await dialog.waitFor({ state: 'detached' });
  expect(await page.content()).not.toContain(secret);
}

/** Waits for the receiver's next test call at `path` past `seen` and verifies it with `secret`. */
async function verifiedTestCall(path: string, seen: number, secret: string) {
  await expect
    .poll(() => receiver.calls.filter((c) => c.path === path).length, { timeout: 15_000 })
    .toBe(seen + 1);
  const call = receiver.calls.filter((c) => c.path === path).at(-1)!;
  const payload = WebhookPayloadSchema.parse(new Webhook(secret).verify(call.body, call.headers));
  expect(payload.type).toBe('webhook.test');
  return call;
}

async function shots(page: Page, name: string) {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('webhooks journey', () => {
  it('a User adds an endpoint, sends a verified test event and manages the endpoint', async () => {
    const page = await t.page(user);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/api-keys');
    await page.getByRole('heading', { name: k.title, level: 1 }).waitFor();

    // An API key first, copied once.
    await page.getByLabel(k.nameLabel).fill('Hook script');
    await page.getByRole('button', { name: k.createButton }).click();
    const key = await page.getByLabel(k.secretLabel).inputValue();
    await page.getByRole('button', { name: k.copyButton }).click();
    await page.getByRole('button', { name: k.copied }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await page.getByRole('button', { name: k.secretDone }).click();

    await page.getByText(w.empty).waitFor();
    await page.getByRole('button', { name: w.addButton }).click();
    const form = page.getByRole('dialog', { name: w.addTitle });
    // The server's own rules in the form: a URL is needed, and at least one event.
    await form.getByText(w.urlHint(false)).waitFor();
    for (const event of Object.values(w.events)) await form.getByLabel(event).uncheck();
    await form.getByRole('button', { name: w.save }).click();
    await form.getByText(msg.webhookUrlRequired).waitFor();
    await form.getByText(msg.webhookEventsRequired).waitFor();
    await form.getByLabel(w.urlLabel).fill('ftp://example.com/hook');
    await form.getByRole('button', { name: w.save }).click();
    await form.getByText(msg.webhookUrlInvalid).waitFor();

    const url = `${receiver.url}/hook`;
    await form.getByLabel(w.urlLabel).fill(url);
    await form.getByLabel(w.events['campaign.status_changed']).check();
    await form.getByLabel(w.events['ticket.updated']).check();
    await form.getByLabel(w.descriptionLabel).fill('E2E receiver');
    await form.getByRole('button', { name: w.save }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByText(msg.webhookEndpointCreated).waitFor();
    const secret = await copySecretOnce(page);
    await doneWithSecret(page, secret);

    const row = endpointRow(page, url);
    await row.getByText('E2E receiver').waitFor();
    await row.getByText(w.enabled, { exact: true }).waitFor();
    // innerText leaves out the phone-only lines that repeat the events and last delivery.
    expect(await row.innerText()).toContain(w.noDelivery);
    expect(await row.innerText()).toContain('ticket.updated');

    // The test event: queued, then delivered and verified, and the log shows it with its 200.
    await rowAction(page, url, w.actions.test);
    await page.getByRole('heading', { name: w.deliveriesTitle(url) }).waitFor();
    await page.getByText(msg.webhookTestQueued).waitFor();
    await verifiedTestCall('/hook', 0, secret);
    const delivered = deliveries(page).getByRole('row').filter({ hasText: 'webhook.test' });
    await delivered.getByText('200', { exact: true }).waitFor();
    await expect.poll(() => row.innerText(), { timeout: 15_000 }).toContain('200');
    await shots(page, 'webhooks-log');

    // A rotated secret is shown once and signs the next call.
    await rowAction(page, url, w.actions.rotate);
    const rotate = page.getByRole('dialog', { name: w.rotateTitle });
    await rotate.getByText(w.rotateConfirm(url)).waitFor();
    await rotate.getByRole('button', { name: w.rotateButton }).click();
    await page.getByText(msg.webhookSecretRotated).waitFor();
    const rotated = await copySecretOnce(page);
    expect(rotated).not.toBe(secret);
    await doneWithSecret(page, rotated);
    await page.getByRole('button', { name: w.actions.test, exact: true }).click();
    const second = await verifiedTestCall('/hook', 1, rotated);
    expect(() => new Webhook(secret).verify(second.body, second.headers)).toThrow();
    await expect.poll(() => delivered.count(), { timeout: 15_000 }).toBe(2);

    // Disable (asked first), enable (at once), edit.
    await rowAction(page, url, w.actions.disable);
    const disable = page.getByRole('dialog', { name: w.disableTitle });
    await disable.getByRole('button', { name: w.actions.disable }).click();
    await row.getByText(w.disabled, { exact: true }).waitFor();
    await rowAction(page, url, w.actions.enable);
    await row.getByText(w.enabled, { exact: true }).waitFor();
    await rowAction(page, url, w.actions.edit);
    const edit = page.getByRole('dialog', { name: w.editTitle });
    expect(await edit.getByLabel(w.urlLabel).inputValue()).toBe(url);
    await edit.getByLabel(w.descriptionLabel).fill('Orders service');
    await edit.getByRole('button', { name: w.save }).click();
    await page.getByText(msg.webhookEndpointUpdated).waitFor();
    await row.getByText('Orders service').waitFor();

    // The low-balance alert: the server's rule, then saved and read back.
    const threshold = page.getByLabel(w.thresholdLabel);
    await threshold.fill('1.5');
    await page.getByRole('button', { name: w.thresholdSave }).click();
    await page.getByText(msg.lowBalanceThresholdInvalid(LOW_BALANCE_THRESHOLD_MAX)).waitFor();
    await threshold.fill('500');
    await page.getByRole('button', { name: w.thresholdSave }).click();
    await page.getByText(msg.lowBalanceThresholdSaved).waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel(w.thresholdLabel).inputValue()).toBe('500');

    // An endpoint that answers 410 is disabled, and the list says why.
    const goneUrl = `${receiver.url}/gone`;
    const gone = await apiJson<{ endpoint: { id: string } }>('POST', '/api/webhooks', userToken, {
      url: goneUrl,
      events: ['ticket.updated'],
    });
    await apiJson('POST', `/api/webhooks/${gone.endpoint.id}/test`, userToken);
    await expect
      .poll(
        async () => {
          await page.reload();
          return endpointRow(page, goneUrl).innerText();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toContain(w.disabledGone);
    expect(await endpointRow(page, goneUrl).innerText()).toContain(w.disabled);
    await shots(page, 'webhooks-list');

    await rowAction(page, url, w.actions.delete);
    const del = page.getByRole('dialog', { name: w.deleteTitle });
    await del.getByText(w.deleteConfirm(url)).waitFor();
    await del.getByRole('button', { name: w.deleteButton }).click();
    await page.getByText(msg.webhookEndpointDeleted).waitFor();
    await row.waitFor({ state: 'detached' });
    await page.close();
  });
});
