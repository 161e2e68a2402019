import { afterAll, describe, expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import {
  server as msg,
  ui,
  type CampaignDetail,
  type CampaignList,
  type CreditRoute,
  type Provider,
  type Sender,
} from '@herald/contract';
import { startWhatsAppFake, type WhatsAppFake } from './support/whatsapp-fake.js';
import {
  apiCreateUser,
  apiLogin,
  apiGiveCredits,
  apiJson,
  campaignRow,
  journey,
  shotWidths,
} from './support/browser.js';

/**
 * WhatsApp templates from the screens (docs/delivery.md, Templates): the Admin registers an
 * approved template for a WhatsApp sender on the Providers screen (the form refusing badly
 * numbered variables as the server does), a User creates a campaign of the credit type routed
 * to that sender as the template with a value for each variable, checked before sending and
 * previewed as filled; once approved the WhatsApp fake receives `type: "template"` with those
 * values in order, and the campaign's details show the template and its values.
 */

const tt = ui.templates;
const TYPE = 'Normal Message - domestic';
const WA = {
  apiVersion: 'v21.0',
  phoneNumberId: '106540352243311',
  accessToken: 'EAAG-e2e-templates-7788',
  appSecret: 'e2e-templates-app-secret',
  verifyToken: 'e2e-templates-verify',
};
const NAME = `WhatsApp templates e2e ${Date.now() % 1e6}`;
const SENDER = `WA templates ${Date.now() % 1e6}`;
const NUMBERS = ['9300000301', '9300000302'];
const TEMPLATE = { name: 'order_update', language: 'en_US', body: 'Hi {{1}}, order {{2}} ships.' };
/** The copy a campaign sent as it keeps. */
const KEPT = { name: TEMPLATE.name, language: TEMPLATE.language, bodyParameters: ['Asha', 'A-12'] };

let fake: WhatsAppFake;
let waStatus: Awaited<ReturnType<typeof startWhatsAppFake>>['status'];
let user: { email: string; password: string };
let routesBefore: CreditRoute[] = [];
let callbackUrl = '';

const t = journey(async (adminToken) => {
  ({ fake, status: waStatus } = await startWhatsAppFake(WA));
  user = await apiCreateUser(adminToken, 'User', 'Templates User');
  await apiGiveCredits(adminToken, user.email, TYPE, 10);
  routesBefore = await apiJson<CreditRoute[]>('GET', '/api/delivery/routes', adminToken);
  // Connecting the provider from the screens is whatsapp-provider.e2e.test.ts's journey.
  const provider = await apiJson<Provider>('POST', '/api/delivery/providers', adminToken, {
    kind: 'whatsapp_cloud',
    name: NAME,
    settings: { baseUrl: fake.url, apiVersion: WA.apiVersion },
    secrets: { accessToken: WA.accessToken, appSecret: WA.appSecret, verifyToken: WA.verifyToken },
  });
  callbackUrl = provider.callbackUrl;
  const sender = await apiJson<Sender>('POST', '/api/delivery/senders', adminToken, {
    providerId: provider.id,
    name: SENDER,
    address: WA.phoneNumberId,
    ratePerSecond: 20,
    dailyLimit: null,
  });
  await apiJson('PUT', '/api/delivery/routes', adminToken, {
    routes: [{ creditType: TYPE, senderId: sender.id }],
  });
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

let campaignId = '';

/**
 * axe's WCAG 2.1 A/AA findings on the page as it is, at 1366 and 390 px, once every transition
 * has finished (as a11y.e2e.test.ts measures every screen).
 */
async function axeFindings(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    );
    const result = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
      .analyze();
    for (const v of result.violations) {
      found.push(`${width}px ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
  }
  return found;
}

/** The Templates section's part for the sender, named by its heading. */
const senderSection = (page: Page) =>
  page.getByRole('region', { name: tt.senderHeading(SENDER, WA.phoneNumberId), exact: true });

describe('WhatsApp templates from the screens', () => {
  it('the Admin adds a template to the WhatsApp sender on the Providers screen', async () => {
    const page = await t.page();
    await page.goto('/providers');
    const section = senderSection(page);
    await section.getByText(tt.noTemplates).waitFor();
    await section.getByRole('button', { name: tt.addFor(SENDER) }).click();
    const dialog = page.getByRole('dialog', { name: tt.addTitle(SENDER) });
    await dialog.getByLabel(tt.nameLabel).fill(TEMPLATE.name);
    await dialog.getByLabel(tt.languageLabel).fill(TEMPLATE.language);
    // A gap in the numbering: counted live, and refused before anything is sent.
    await dialog.getByLabel(tt.bodyLabel).fill('Hi {{1}}, order {{3}} ships.');
    await expect(dialog.getByTestId('template-variable-count').innerText()).resolves.toBe(
      tt.variablesFound(null),
    );
    await dialog.getByRole('button', { name: tt.add }).click();
    await dialog.getByText(msg.templateVariablesNumbering).waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await dialog.getByLabel(tt.bodyLabel).fill(TEMPLATE.body);
    await expect(dialog.getByTestId('template-variable-count').innerText()).resolves.toBe(
      tt.variablesFound(2),
    );
    await shotWidths(page, 'whatsapp-templates-add');
    await dialog.getByRole('button', { name: tt.add }).click();
    await page.getByText(tt.created(TEMPLATE.name)).waitFor();
    const row = section.getByRole('row').filter({ hasText: TEMPLATE.name });
    await row.getByText(TEMPLATE.body).waitFor();
    await expect(row.getByRole('cell').nth(1).innerText()).resolves.toBe(TEMPLATE.language);
    await expect(row.getByRole('cell').nth(3).innerText()).resolves.toBe('2');

    // The same name and language again: the server's refusal, in the dialog.
    await section.getByRole('button', { name: tt.addFor(SENDER) }).click();
    await dialog.getByLabel(tt.nameLabel).fill(TEMPLATE.name);
    await dialog.getByLabel(tt.languageLabel).fill(TEMPLATE.language);
    await dialog.getByLabel(tt.bodyLabel).fill('Other text');
    await dialog.getByRole('button', { name: tt.add }).click();
    await dialog.getByText(msg.templateTaken).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await axeFindings(page)).toEqual([]);
    await shotWidths(page, 'whatsapp-templates-providers');
    await page.close();
  });

  it('a User creates a campaign as the template, its values checked and previewed', async () => {
    const page = await t.page(user);
    await page.goto('/campaigns');
    const form = page.getByRole('form', { name: 'Create Campaign' });
    await form.getByLabel('Credit Type').selectOption(TYPE);
    const select = form.getByLabel(tt.templateLabel, { exact: true });
    await expect(select.inputValue()).resolves.toBe('');
    await select.selectOption({ label: tt.optionLabel(TEMPLATE.name, TEMPLATE.language) });
    // The message box and the media give way to the variables (a template carries neither);
    // "No template" brings them back.
    expect(await form.getByLabel('Message', { exact: true }).count()).toBe(0);
    expect(await form.getByLabel('PDF').count()).toBe(0);
    await select.selectOption(tt.noTemplate);
    await form.getByLabel('Message', { exact: true }).waitFor();
    await form.getByLabel('PDF').waitFor();
    await select.selectOption({ label: tt.optionLabel(TEMPLATE.name, TEMPLATE.language) });
    // The preview fills as the values are typed.
    await form.getByLabel(tt.variableLabel(1)).fill('Asha');
    const preview = form.getByTestId('template-preview');
    await expect(preview.innerText()).resolves.toBe('Hi Asha, order {{2}} ships.');
    await form.getByLabel('Numbers', { exact: true }).fill(NUMBERS.join(', '));
    await form.getByRole('button', { name: 'Create Campaign' }).click();
    await form.getByText(msg.templateValuesMissing(2)).waitFor();
    const second = form.getByLabel(tt.variableLabel(2));
    await expect(second.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect.poll(() => second.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 768 });
    await second.fill('A-12');
    expect(await form.getByText(msg.templateValuesMissing(2)).count()).toBe(0);
    await expect(preview.innerText()).resolves.toBe('Hi Asha, order A-12 ships.');
    await shotWidths(page, 'whatsapp-templates-form');

    await form.getByRole('button', { name: 'Create Campaign' }).click();
    const confirm = page.getByRole('dialog', { name: ui.campaigns.confirmTitle });
    await confirm.getByTestId('preview-text').getByText('Hi Asha, order A-12 ships.').waitFor();
    await confirm.getByText(tt.optionLabel(TEMPLATE.name, TEMPLATE.language)).waitFor();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await form.getByText(ui.campaigns.created).waitFor();
    const token = (await apiLogin(user.email, user.password)).token;
    const list = await apiJson<CampaignList>('GET', '/api/campaigns', token);
    const created = list.campaigns.find((c) => c.template?.name === TEMPLATE.name)!;
    expect(created.message).toBe('Hi Asha, order A-12 ships.');
    expect(created.template).toEqual(KEPT);
    campaignId = created._id;
    await page.close();
  });

  it('approved, it goes to WhatsApp as the template; its details show it', async () => {
    const page = await t.page();
    await page.goto('/campaigns');
    const row = campaignRow(
      page.getByRole('table', { name: 'Campaigns' }),
      user.email,
      NUMBERS.length,
    );
    await row.getByText('Submitted').waitFor();
    await row.getByRole('button', { name: 'Actions' }).click();
    await page
      .locator('.dropdown-menu.show')
      .getByRole('button', { name: 'Change Status' })
      .click();
    const status = page.getByRole('dialog', { name: 'Change Status' });
    await status.getByLabel('Status').selectOption('Approved');
    await status.getByRole('button', { name: 'Update' }).click();
    await status.waitFor({ state: 'hidden' });

    const sent = () =>
      fake.messages.filter((m) => m.body.biz_opaque_callback_data?.startsWith(campaignId));
    await expect.poll(() => sent().length, { timeout: 30_000 }).toBe(NUMBERS.length);
    for (const m of sent()) {
      expect(m.body.type).toBe('template');
      expect(m.body.template).toEqual({
        name: TEMPLATE.name,
        language: { code: TEMPLATE.language },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Asha' },
              { type: 'text', text: 'A-12' },
            ],
          },
        ],
      });
    }
    // Delivered, so the campaign settles and its sender can be removed afterwards.
    const res = await fake.postStatuses(
      callbackUrl,
      sent().map((m) => waStatus(m, 'delivered')),
    );
    expect(res.status).toBe(200);
    await row.getByText('Report Generated').waitFor({ timeout: 60_000 });

    await row.getByRole('button', { name: 'Actions' }).click();
    await page
      .locator('.dropdown-menu.show')
      .getByRole('button', { name: 'View', exact: true })
      .click();
    const details = page.getByRole('dialog', { name: 'Campaign Details' });
    const shown = details.getByTestId('campaign-template');
    await shown.getByText(tt.optionLabel(TEMPLATE.name, TEMPLATE.language)).waitFor();
    const values = shown.getByRole('list', { name: tt.detailsValues });
    await expect(values.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      '{{1}} Asha',
      '{{2}} A-12',
    ]);
    await shotWidths(page, 'whatsapp-templates-details');
    await page.close();
  }, 120_000);

  it('the Admin removes the template; the campaign keeps its copy', async () => {
    const page = await t.page();
    await page.goto('/providers');
    await page.getByRole('button', { name: tt.removeLabel(TEMPLATE.name) }).click();
    const ask = page.getByRole('dialog', { name: tt.removeTitle });
    await ask.getByText(tt.removeConfirm(TEMPLATE.name)).waitFor();
    await ask.getByRole('button', { name: ui.providers.actions.remove }).click();
    await page.getByText(tt.removed(TEMPLATE.name)).waitFor();
    const section = senderSection(page);
    await section.getByText(tt.noTemplates).waitFor();
    const kept = await apiJson<CampaignDetail>('GET', `/api/campaigns/${campaignId}`, t.adminToken);
    expect(kept.template).toEqual(KEPT);
    await page.close();
  });
});
