import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  SIMULATED_DELIVERY_NOTICE,
  server as msg,
  ui,
  type Campaign,
  type CreditRoute,
  type Provider,
  type Sender,
} from '@herald/contract';
import { startWhatsAppFake, type WhatsAppFake } from './support/whatsapp-fake.js';
import {
  apiCreateCampaign,
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  campaignRow,
  journey,
  shot,
  shotWidths,
} from './support/browser.js';

/**
 * A real provider connected from the screens (docs/delivery.md, The Providers screen): the
 * Admin adds a WhatsApp Cloud API provider pointing at the local WhatsApp fake (a real HTTP
 * server on 127.0.0.1, written from Meta's reference), adds a sender with the fake's phone
 * number id, routes a credit type to it and sends a test message, seeing the raw answer; a
 * User's campaign of that type is approved, sent to the fake, delivered by Meta's signed status
 * webhooks and reported; a STOP through the fake's inbound webhook puts the number on the
 * owner's list, which the next campaign's form counts.
 */

const p = ui.providers;
const TYPE = 'Normal Message - domestic';
const WA = {
  apiVersion: 'v21.0',
  phoneNumberId: '106540352242922',
  accessToken: 'EAAG-e2e-access-token-5150',
  appSecret: 'e2e-app-secret-0042',
  verifyToken: 'e2e-verify-token',
};
const NAME = `WhatsApp e2e ${Date.now() % 1e6}`;
const SENDER = `WA number ${Date.now() % 1e6}`;
const NUMBERS = ['9300000101', '9300000102', '9300000103'];
const TEST_TO = '919300000199';

let fake: WhatsAppFake;
let waStatus: Awaited<ReturnType<typeof startWhatsAppFake>>['status'];
let user: { email: string; password: string };
let routesBefore: CreditRoute[] = [];
let callbackUrl = '';

const t = journey(async (adminToken) => {
  ({ fake, status: waStatus } = await startWhatsAppFake(WA));
  user = await apiCreateUser(adminToken, 'User', 'WhatsApp User');
  await apiGiveCredits(adminToken, user.email, TYPE, 20);
  routesBefore = await apiJson<CreditRoute[]>('GET', '/api/delivery/routes', adminToken);
});
afterAll(async () => {
  // The e2e database is shared by the journeys: the routing goes back and the provider goes.
  await apiJson('PUT', '/api/delivery/routes', t.adminToken, { routes: routesBefore });
  const senders = await apiJson<Sender[]>('GET', '/api/delivery/senders', t.adminToken);
  for (const s of senders.filter((x) => x.name === SENDER)) {
    await apiJson('DELETE', `/api/delivery/senders/${s.id}`, t.adminToken);
  }
  const providers = await apiJson<Provider[]>('GET', '/api/delivery/providers', t.adminToken);
  for (const x of providers.filter((y) => y.name === NAME)) {
    await apiJson('DELETE', `/api/delivery/providers/${x.id}`, t.adminToken);
  }
  await fake?.close();
});

const providerRow = (page: Page) =>
  page.getByRole('table', { name: p.providersTitle }).getByRole('row').filter({ hasText: NAME });

async function approve(page: Page, row: ReturnType<typeof campaignRow>) {
  await row.getByRole('button', { name: 'Actions' }).click();
  await page.locator('.dropdown-menu.show').getByRole('button', { name: 'Change Status' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Status' });
  await dialog.getByLabel('Status').selectOption('Approved');
  await dialog.getByRole('button', { name: 'Update' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('a WhatsApp Cloud API provider connected from the screens', () => {
  it('the Admin adds it, adds its sender, routes a credit type and sends a test message', async () => {
    const page = await t.page();
    await page.goto('/providers');
    await page.getByRole('button', { name: p.addProvider }).click();
    const add = page.getByRole('dialog', { name: p.addProviderTitle });
    await add.getByLabel(p.kindLabel).selectOption('whatsapp_cloud');
    await add.getByLabel(p.nameLabel, { exact: true }).fill(NAME);
    await add.getByLabel('Graph API URL').fill(fake.url);
    await expect(add.getByLabel('API version').inputValue()).resolves.toBe(WA.apiVersion);
    await add.getByLabel('Access token').fill(WA.accessToken);
    await add.getByLabel('App secret').fill(WA.appSecret);
    await add.getByLabel('Verify token').fill(WA.verifyToken);
    await add.getByRole('button', { name: 'Save' }).click();
    await page.getByText(p.providerSaved(NAME)).waitFor();
    await providerRow(page)
      .getByText(p.maskedSecret(WA.accessToken.slice(-4)))
      .waitFor();
    const provider = (
      await apiJson<Provider[]>('GET', '/api/delivery/providers', t.adminToken)
    ).find((x) => x.name === NAME)!;
    callbackUrl = provider.callbackUrl;
    await providerRow(page).getByText(callbackUrl).waitFor();

    await page.getByRole('button', { name: p.addSender }).click();
    const sender = page.getByRole('dialog', { name: p.addSenderTitle });
    await sender
      .getByLabel(p.providerLabel)
      .selectOption({ label: `${NAME} (WhatsApp Cloud API)` });
    await sender.getByLabel(p.senderNameLabel, { exact: true }).fill(SENDER);
    await sender.getByLabel('Phone number ID').fill(WA.phoneNumberId);
    await sender.getByLabel(p.columns.rate).fill('20');
    await sender.getByRole('button', { name: 'Save' }).click();
    await page.getByText(p.senderCreated(SENDER)).waitFor();

    await page.getByLabel(TYPE, { exact: true }).selectOption({ label: `${SENDER} · ${NAME}` });
    await page.getByRole('button', { name: p.routesSave }).click();
    await page.getByText(p.routesSaved).waitFor();

    await providerRow(page).getByRole('button', { name: 'Actions' }).click();
    await page.locator('.dropdown-menu.show').getByRole('button', { name: p.actions.test }).click();
    const test = page.getByRole('dialog', { name: p.testTitle(NAME) });
    await expect(test.getByLabel(p.testSenderLabel).inputValue()).resolves.not.toBe('');
    await test.getByLabel(p.testToLabel).fill(TEST_TO);
    await test.getByRole('button', { name: p.testSend }).click();
    await test.getByText(msg.providerTestAccepted).waitFor();
    await test.getByText(p.testStatus(200)).waitFor();
    const answer = test.getByRole('region', { name: p.testAnswer });
    await expect(answer.innerText()).resolves.toContain('"messaging_product":"whatsapp"');
    expect(fake.messages.map((m) => m.body.to)).toEqual([TEST_TO]);
    expect(await answer.innerText()).toContain(fake.messages[0]!.id);
    await shotWidths(page, 'whatsapp-provider-test');
    await page.close();
  });

  it("a User's campaign of that type is sent to it, delivered by its webhooks and reported", async () => {
    const userToken = (await apiLogin(user.email, user.password)).token;
    const id = await apiCreateCampaign(userToken, {
      creditType: TYPE,
      message: 'Hello from Herald through WhatsApp',
      to: NUMBERS.join(','),
    });
    const page = await t.page();
    await page.goto('/campaigns');
    const row = campaignRow(
      page.getByRole('table', { name: 'Campaigns' }),
      user.email,
      NUMBERS.length,
    );
    await row.getByText('Submitted').waitFor();
    await approve(page, row);

    const sent = () => fake.messages.filter((m) => m.body.biz_opaque_callback_data?.startsWith(id));
    await expect.poll(() => sent().length, { timeout: 30_000 }).toBe(NUMBERS.length);
    expect(
      sent()
        .map((m) => m.body.to)
        .sort(),
    ).toEqual(NUMBERS);
    const res = await fake.postStatuses(
      callbackUrl,
      sent().map((m) => waStatus(m, 'delivered')),
    );
    expect(res.status).toBe(200);
    await row.getByText('Report Generated').waitFor({ timeout: 60_000 });
    const done = await apiJson<Campaign>('GET', `/api/campaigns/${id}`, t.adminToken);
    expect(done.delivery).toMatchObject({ simulated: false, delivered: NUMBERS.length, failed: 0 });
    expect(await row.getByText(SIMULATED_DELIVERY_NOTICE).count()).toBe(0);
    await shot(page, 'whatsapp-provider-campaign');
    await page.close();

    const owner = await t.page(user);
    await owner.goto('/campaigns');
    const mine = campaignRow(
      owner.getByRole('table', { name: 'Campaigns' }),
      user.email,
      NUMBERS.length,
    );
    await mine.getByRole('button', { name: 'Actions' }).click();
    await owner.locator('.dropdown-menu.show').getByRole('button', { name: 'View Report' }).click();
    const report = owner.getByRole('dialog', { name: /Delivery Report/ });
    await expect
      .poll(() => report.getByLabel('Report summary').innerText())
      .toMatch(
        new RegExp(`^${NUMBERS.length}\\s*Delivered\\s*0\\s*Failed\\s*${NUMBERS.length}\\s*Total`),
      );
    await owner.close();
  }, 120_000);

  it("a STOP through the provider's webhook suppresses the number in the next campaign", async () => {
    const stop = await fake.postInbound(callbackUrl, [
      {
        from: NUMBERS[0],
        id: `wamid.reply-${NUMBERS[0]}`,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: 'text',
        text: { body: 'STOP' },
      },
    ]);
    expect(stop.status).toBe(200);
    const page = await t.page(user);
    await page.goto('/campaigns');
    await page.getByLabel('Numbers', { exact: true }).fill(NUMBERS.join(', '));
    const line = page.getByTestId('campaign-suppressed');
    await line.waitFor();
    await expect(line.textContent()).resolves.toBe(ui.campaigns.suppressedLine(1));
    await shot(page, 'whatsapp-provider-suppressed');
    await page.close();
  });
});
