import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { server as msg, ui, type CreditRoute, type Provider, type Sender } from '@herald/contract';
import { apiJson, journey, shot, shotWidths } from './support/browser.js';

/**
 * The Providers screen (docs/delivery.md, The Providers screen): the old Delivery Settings
 * address leads to it; the built-in simulator is listed with its secret set by the server and a callback
 * URL that copies; the Admin adds an SMS gateway (errors from the contract on the form),
 * edits it keeping its secrets, adds a sender, routes a plain-text type to it while the rich
 * types cannot be, disables and enables it, and removes the sender and then the provider.
 */

const p = ui.providers;
const NAME = `Jasmin e2e ${Date.now() % 1e6}`;
const SENDER = `SMS e2e ${Date.now() % 1e6}`;
const PLAIN = 'Normal Message - domestic';
const RICH = 'With CTA - domestic';

let routesBefore: CreditRoute[] = [];
const t = journey(async (adminToken) => {
  routesBefore = await apiJson<CreditRoute[]>('GET', '/api/delivery/routes', adminToken);
});
afterAll(async () => {
  // The e2e database is shared by the journeys: the routing and the providers go back as they were.
  await apiJson('PUT', '/api/delivery/routes', t.adminToken, { routes: routesBefore });
  const senders = await apiJson<Sender[]>('GET', '/api/delivery/senders', t.adminToken);
  for (const s of senders.filter((x) => x.name === SENDER)) {
    await apiJson('DELETE', `/api/delivery/senders/${s.id}`, t.adminToken);
  }
  const providers = await apiJson<Provider[]>('GET', '/api/delivery/providers', t.adminToken);
  for (const x of providers.filter((y) => y.name === NAME)) {
    await apiJson('DELETE', `/api/delivery/providers/${x.id}`, t.adminToken);
  }
});

const providerRow = (page: Page, name: string) =>
  page.getByRole('table', { name: p.providersTitle }).getByRole('row').filter({ hasText: name });
const senderRow = (page: Page, name: string) =>
  page.getByRole('table', { name: p.sendersTitle }).getByRole('row').filter({ hasText: name });

async function rowAction(page: Page, name: string, action: string) {
  await providerRow(page, name).getByRole('button', { name: 'Actions' }).click();
  await page
    .locator('.dropdown-menu.show')
    .getByRole('button', { name: action, exact: true })
    .click();
}

describe('Providers screen', () => {
  it('the old Delivery Settings address opens Providers, with the simulator and its callback URL', async () => {
    const page = await t.page();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/delivery-settings');
    await page.waitForURL('**/providers');
    await page.getByRole('heading', { name: p.title, exact: true }).waitFor();
    const [builtin] = (
      await apiJson<Provider[]>('GET', '/api/delivery/providers', t.adminToken)
    ).filter((x) => x.builtin);
    expect(builtin).toBeDefined();
    const row = providerRow(page, builtin!.name);
    await row.getByText(p.builtin, { exact: true }).waitFor();
    await row.getByText(builtin!.callbackUrl).waitFor();
    // Its secret is the server's own setting: the row says so rather than "not set".
    expect(builtin!.secrets).toEqual({});
    await row.getByText(p.secretOfServer, { exact: true }).waitFor();
    await row.getByRole('button', { name: p.copyLabel(builtin!.name) }).click();
    await row.getByText(p.copied, { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(builtin!.callbackUrl);
    // Nothing of the built-in provider is edited here but its senders.
    await row.getByRole('button', { name: 'Actions' }).click();
    const menu = page.locator('.dropdown-menu.show');
    expect(await menu.getByRole('button').allInnerTexts()).toEqual([p.actions.test]);
    await page.keyboard.press('Escape');
    await senderRow(page, builtin!.name).getByText(p.defaultBadge, { exact: true }).waitFor();
    await shotWidths(page, 'providers');
    await page.close();
  });

  it('the Admin adds, edits, routes, disables and removes an SMS gateway and its sender', async () => {
    const page = await t.page();
    await page.goto('/providers');
    await page.getByRole('button', { name: p.addProvider }).click();
    const add = page.getByRole('dialog', { name: p.addProviderTitle });
    await add.getByLabel(p.kindLabel).selectOption('jasmin');
    await add.getByLabel(p.nameLabel, { exact: true }).fill(NAME);
    await add.getByLabel('Gateway URL').fill('gateway.example');
    await add.getByRole('button', { name: 'Save' }).click();
    await add.getByText(msg.providerUrlInvalid('Gateway URL')).waitFor();
    await add.getByLabel('Gateway URL').fill('http://127.0.0.1:9/jasmin');
    await add.getByRole('button', { name: 'Save' }).click();
    await add.getByText(msg.providerFieldRequired('Username')).waitFor();
    await shot(page, 'providers-add-errors');
    await add.getByLabel('Username').fill('herald');
    await add.getByLabel('Password').fill('secret-pass-7788');
    await add.getByRole('button', { name: 'Save' }).click();
    await page.getByText(p.providerSaved(NAME)).waitFor();
    await add.waitFor({ state: 'detached' });
    const row = providerRow(page, NAME);
    await row.getByText(p.maskedSecret('7788')).waitFor();
    await row.getByText(p.enabled, { exact: true }).waitFor();

    // An edit shows no secret; left empty, the saved one stays.
    await rowAction(page, NAME, p.actions.edit);
    const edit = page.getByRole('dialog', { name: p.editProviderTitle(NAME) });
    await expect(edit.getByLabel('Password').inputValue()).resolves.toBe('');
    await edit.getByText(p.secretSaved('7788')).waitFor();
    await edit.getByLabel(p.optional('Domestic country code')).fill('91');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    const saved = (await apiJson<Provider[]>('GET', '/api/delivery/providers', t.adminToken)).find(
      (x) => x.name === NAME,
    )!;
    expect(saved.settings).toMatchObject({ domesticCountryCode: '91' });
    expect(saved.secrets).toMatchObject({ password: '7788' });

    // A sender of it, then the routing: a plain-text type may go to it, a rich one may not.
    await page.getByRole('button', { name: p.addSender }).click();
    const sender = page.getByRole('dialog', { name: p.addSenderTitle });
    await sender
      .getByLabel(p.providerLabel)
      .selectOption({ label: `${NAME} (HTTP SMS gateway (Jasmin))` });
    await sender.getByLabel(p.senderNameLabel, { exact: true }).fill(SENDER);
    await sender.getByRole('button', { name: 'Save' }).click();
    await sender.getByText(msg.senderAddressRequired('Sender ID or number')).waitFor();
    await sender.getByLabel('Sender ID or number').fill('HERALD');
    await sender.getByLabel(p.columns.rate).fill('5');
    await sender.getByRole('button', { name: 'Save' }).click();
    await page.getByText(p.senderCreated(SENDER)).waitFor();
    await senderRow(page, SENDER).getByText('HERALD').waitFor();
    await row.getByRole('cell', { name: '1', exact: true }).waitFor();

    const created = (await apiJson<Sender[]>('GET', '/api/delivery/senders', t.adminToken)).find(
      (s) => s.name === SENDER,
    )!;
    const rich = page.getByLabel(RICH, { exact: true });
    const option = rich.locator(`option[value="${created.id}"]`);
    await expect(option.getAttribute('disabled')).resolves.not.toBeNull();
    await expect(option.innerText()).resolves.toContain(p.smsOnly);
    await page.getByLabel(PLAIN, { exact: true }).selectOption(created.id);
    await page.getByRole('button', { name: p.routesSave }).click();
    await page.getByText(p.routesSaved).waitFor();
    const routes = await apiJson<CreditRoute[]>('GET', '/api/delivery/routes', t.adminToken);
    expect(routes.find((r) => r.creditType === PLAIN)?.senderId).toBe(created.id);
    // The server holds the same rule as the form.
    const refused = await fetch(`${new URL(page.url()).origin}/api/delivery/routes`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ routes: [{ creditType: RICH, senderId: created.id }] }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe(msg.routeRichToSms(RICH));
    await shotWidths(page, 'providers-routed');

    // Disabling asks first; enabling does not.
    await rowAction(page, NAME, p.actions.disable);
    const confirm = page.getByRole('dialog', { name: p.disableTitle });
    await confirm.getByText(p.disableConfirm(NAME)).waitFor();
    await confirm.getByRole('button', { name: p.actions.disable }).click();
    await page.getByText(p.providerDisabled(NAME)).waitFor();
    await row.getByText(p.disabled, { exact: true }).waitFor();
    await rowAction(page, NAME, p.actions.enable);
    await page.getByText(p.providerEnabled(NAME)).waitFor();
    await row.getByText(p.enabled, { exact: true }).waitFor();

    // A provider with senders stays; without, it goes.
    await page.getByLabel(PLAIN, { exact: true }).selectOption('');
    await page.getByRole('button', { name: p.routesSave }).click();
    await page.getByText(p.routesSaved).waitFor();
    await rowAction(page, NAME, p.actions.remove);
    await page
      .getByRole('dialog', { name: p.removeProviderTitle })
      .getByRole('button', { name: p.actions.remove })
      .click();
    await page.getByText(msg.providerHasSenders).waitFor();
    await senderRow(page, SENDER)
      .getByRole('button', { name: `${p.actions.remove} ${SENDER}` })
      .click();
    const removeSender = page.getByRole('dialog', { name: p.removeSenderTitle });
    await removeSender.getByText(p.removeSenderConfirm(SENDER)).waitFor();
    await removeSender.getByRole('button', { name: p.actions.remove }).click();
    await page.getByText(p.senderRemoved(SENDER)).waitFor();
    await expect.poll(() => senderRow(page, SENDER).count()).toBe(0);
    await rowAction(page, NAME, p.actions.remove);
    await page
      .getByRole('dialog', { name: p.removeProviderTitle })
      .getByRole('button', { name: p.actions.remove })
      .click();
    await page.getByText(p.providerRemoved(NAME)).waitFor();
    await expect.poll(() => providerRow(page, NAME).count()).toBe(0);
    await page.close();
  });
});
