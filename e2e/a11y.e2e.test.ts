import { describe, expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import {
  PROVIDER_LIMITS,
  server as msg,
  twoFactorMessages,
  twoFactorUi,
  ui,
  type Role,
} from '@herald/contract';
import {
  adminCredentials,
  apiCreateCampaign,
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  journey,
  newPage,
  shot,
  type Credentials,
} from './support/browser.js';
import { webhookDialogs } from './support/a11y-webhooks.js';
import { apiEnrolTwoFactor } from './support/two-factor.js';

/**
 * WCAG 2.1 A/AA on every screen (docs/product.md, Accessibility): axe-core with the wcag2a,
 * wcag2aa, wcag21a and wcag21aa rules on each screen of each role's menu, plus the alerts
 * dropdown, the create-ticket dialog and a campaign row's Actions menu open (for the Admin also the
 * Providers screen's add-provider and test-message dialogs; for the User the webhook endpoint's
 * dialogs and delivery log), the login page, and a
 * delivered campaign's details and report dialogs, two-factor sign-in's set-up, new-codes and
 * turn-off dialogs and the login's code step, at 1366 and 390 px: no violation. At 390 px no page is wider than the window, and the skip link is the first Tab
 * stop, visible when focused, and moves focus to the main content.
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const WIDTHS = [
  [1366, 768],
  [390, 844],
] as const;
const TYPE = 'Normal Message - domestic';
/** Port 9 (discard) on loopback: nothing answers there, so a delivery fails without an answer. */
const WEBHOOK_URL = 'http://127.0.0.1:9/a11y-hook';

const people: Record<Role, Credentials> = {
  Admin: { email: '', password: '' },
  Reseller: { email: '', password: '' },
  'Sub-Reseller': { email: '', password: '' },
  User: { email: '', password: '' },
};

const t = journey(async (admin) => {
  // A chain Admin → Reseller → Sub-Reseller → User, each with credits, a ledger entry and a
  // campaign of its own, so every screen has rows (tables, Actions menus, progress bars).
  const reseller = await apiCreateUser(admin, 'Reseller', 'A11y Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  const sub = await apiCreateUser(resellerToken, 'Sub-Reseller', 'A11y Sub Reseller');
  const subToken = (await apiLogin(sub.email, sub.password)).token;
  const user = await apiCreateUser(subToken, 'User', 'A11y User');
  const userToken = (await apiLogin(user.email, user.password)).token;
  people.Admin = adminCredentials();
  people.Reseller = reseller;
  people['Sub-Reseller'] = sub;
  people.User = user;
  let n = 0;
  for (const [who, token] of [
    [reseller, resellerToken],
    [sub, subToken],
    [user, userToken],
  ] as const) {
    await apiGiveCredits(admin, who.email, TYPE, 100);
    const id = await apiCreateCampaign(token, {
      to: `96300000${n++}0,96300000${n++}1`,
      creditType: TYPE,
      message: `A11y campaign of ${who.name}`,
    });
    // One approved campaign per owner: the simulator delivers it, so its row has a progress bar.
    if (who === user) {
      await apiJson('PUT', `/api/campaigns/status/${id}`, admin, { status: 'Approved' });
    }
    await apiCreateCampaign(token, {
      to: `96300000${n++}2`,
      creditType: TYPE,
      message: `A11y pending campaign of ${who.name}`,
    });
  }
  // A webhook endpoint nothing listens on: its test events fail, so its log has rows to read.
  await apiJson('POST', '/api/webhooks', userToken, {
    url: WEBHOOK_URL,
    events: ['ticket.updated'],
    description: 'A11y endpoint',
  });
});

interface Finding {
  where: string;
  rule: string;
  impact: string;
  targets: string[];
  detail: string;
}

async function axe(page: Page, where: string, findings: Finding[], include?: string) {
  // A dialog or menu still fading in is measured at part opacity (grey on grey): wait until
  // every finite CSS transition and animation of the page has finished (a spinner turns for ever).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  let builder = new AxeBuilder({ page })
    .withTags(TAGS)
    // Experimental in axe (so off by default), but WCAG 2.5.3 Label in Name (A).
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } });
  if (include) builder = builder.include(include);
  const result = await builder.analyze();
  for (const v of result.violations) {
    findings.push({
      where,
      rule: v.id,
      impact: v.impact ?? '',
      targets: v.nodes.slice(0, 3).map((node) => node.target.join(' ')),
      detail: v.nodes[0]?.any[0]?.message ?? v.nodes[0]?.all[0]?.message ?? '',
    });
  }
}

const slug = (s: string) => s.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');

/**
 * Waits until the screen's data has arrived: its heading, and no spinner left in main. A screen
 * that never settles fails with its address and what the page shows instead, and a screenshot,
 * so a failure on a loaded CI machine says which screen it was.
 */
async function settled(page: Page) {
  try {
    await page.locator('main h1').first().waitFor();
    await page.waitForFunction(
      () => !document.querySelector('main .spinner-border, main .placeholder-glow'),
    );
  } catch (error) {
    const url = page.url();
    const shown = await page
      .evaluate(() => document.body.innerText.replace(/\s+/g, ' ').slice(0, 400))
      .catch(() => '(page not readable)');
    await shot(page, `a11y-unsettled-${slug(new URL(url).pathname)}`).catch(() => undefined);
    throw new Error(`${url} did not settle (${String(error)}); the page shows: ${shown}`);
  }
}

/** The hrefs of the role's menu: every screen the route table lets it open. */
async function menuHrefs(page: Page): Promise<string[]> {
  const links = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link');
  await links.first().waitFor({ state: 'attached' });
  const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? ''));
  return hrefs.filter(Boolean);
}

function report(findings: Finding[]): string {
  return findings
    .map((f) => `${f.where}: ${f.rule} (${f.impact}) at ${f.targets.join(' | ')}: ${f.detail}`)
    .join('\n');
}

/**
 * The Providers screen's dialogs, open: a new WhatsApp provider refused with its errors shown,
 * and the built-in simulator's test message with the provider's answer under it.
 */
async function providerDialogs(page: Page, width: number, findings: Finding[]) {
  const p = ui.providers;
  await page.goto('/providers');
  await settled(page);
  await page.getByRole('button', { name: p.addProvider }).click();
  const add = page.getByRole('dialog', { name: p.addProviderTitle });
  await add.getByLabel(p.kindLabel).selectOption('whatsapp_cloud');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText(msg.providerNameInvalid(PROVIDER_LIMITS.nameMax)).waitFor();
  await axe(page, `Admin add-provider dialog @${width}`, findings);
  await shot(page, `a11y-admin-add-provider-${width}`);
  await page.keyboard.press('Escape');
  await add.waitFor({ state: 'detached' });

  const builtin = page
    .getByRole('table', { name: p.providersTitle })
    .getByRole('row')
    .filter({ hasText: p.builtin });
  await builtin.getByRole('button', { name: 'Actions' }).click();
  await page
    .locator('.dropdown-menu.show')
    .getByRole('button', { name: p.actions.test, exact: true })
    .click();
  const test = page.getByRole('dialog', { name: /^Send a test message through/ });
  await test.getByLabel(p.testToLabel).fill('919800000001');
  await test.getByRole('button', { name: p.testSend }).click();
  await test.getByRole('heading', { name: p.testAnswer }).waitFor();
  await axe(page, `Admin test-message dialog @${width}`, findings);
  await shot(page, `a11y-admin-test-message-${width}`);
  await page.keyboard.press('Escape');
  await test.waitFor({ state: 'detached' });
}

const ROLES: Role[] = ['Admin', 'Reseller', 'Sub-Reseller', 'User'];

describe('accessibility', () => {
  for (const role of ROLES) {
    it(`every screen of the ${role} passes axe (WCAG 2.1 AA) at 1366 and 390 px`, async () => {
      const page = await t.page(people[role]);
      const findings: Finding[] = [];
      const wide: string[] = [];
      const hrefs = await menuHrefs(page);
      expect(hrefs.length).toBeGreaterThan(3);
      for (const [width, height] of WIDTHS) {
        await page.setViewportSize({ width, height });
        for (const href of hrefs) {
          await page.goto(href);
          await settled(page);
          const where = `${role} ${href} @${width}`;
          await axe(page, where, findings);
          const over = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          if (over > 0) wide.push(`${where}: ${over}px wider than the window`);
          await shot(page, `a11y-${slug(role)}-${slug(href.split('/')[1] ?? 'home')}-${width}`);
        }

        // The alerts dropdown, open.
        await page.goto(hrefs[0]!);
        await settled(page);
        await page.getByRole('button', { name: /^Alerts/ }).click();
        await page.locator('.alerts-menu.show').waitFor();
        await axe(page, `${role} alerts dropdown @${width}`, findings);
        await page.keyboard.press('Escape');

        // The create-ticket dialog, open.
        await page.goto('/tickets');
        await settled(page);
        await page.getByRole('button', { name: 'Create Ticket' }).click();
        await page.getByRole('dialog').waitFor();
        await axe(page, `${role} create-ticket dialog @${width}`, findings);
        await shot(page, `a11y-${slug(role)}-create-ticket-${width}`);
        await page.keyboard.press('Escape');

        // A campaign row's Actions menu, open.
        await page.goto('/campaigns');
        await settled(page);
        const table = page.getByRole('table', { name: 'Campaigns' });
        await table.getByRole('button', { name: 'Actions' }).first().click();
        await page.locator('.dropdown-menu.show').waitFor();
        await axe(page, `${role} campaign Actions menu @${width}`, findings);
        await shot(page, `a11y-${slug(role)}-actions-menu-${width}`);

        if (role === 'Admin') await providerDialogs(page, width, findings);
        if (role === 'User') {
          await webhookDialogs(page, WEBHOOK_URL, {
            settled: () => settled(page),
            axe: (what) => axe(page, `User ${what} @${width}`, findings),
            shot: (what) => shot(page, `a11y-user-${what}-${width}`),
          });
        }
      }
      await page.close();
      expect(report(findings), 'axe violations').toBe('');
      expect(wide.filter((w) => w.includes('@390')).join('\n'), 'pages wider than 390 px').toBe('');
    }, 600_000);
  }

  it("the login page and a campaign's details and report dialogs pass axe at 1366 and 390 px", async () => {
    const findings: Finding[] = [];
    const visitor = await newPage(t.browser);
    const page = await t.page(people.User);
    for (const [width, height] of WIDTHS) {
      await visitor.setViewportSize({ width, height });
      await visitor.goto('/login');
      await visitor.getByRole('button', { name: 'Login' }).waitFor();
      await axe(visitor, `login @${width}`, findings);
      await shot(visitor, `a11y-login-${width}`);

      // The User's approved campaign, delivered by the simulator and settled into a report.
      await page.setViewportSize({ width, height });
      await page.goto('/campaigns');
      await settled(page);
      const row = page
        .getByRole('table', { name: 'Campaigns' })
        .getByRole('row')
        .filter({ hasText: 'Report Generated' });
      await row.first().waitFor({ timeout: 60_000 });
      for (const [action, dialogName] of [
        ['View', /Campaign Details/],
        ['View Report', /Delivery Report/],
      ] as const) {
        await row.first().getByRole('button', { name: 'Actions' }).click();
        await page
          .locator('.dropdown-menu.show')
          .getByRole('button', { name: action, exact: true })
          .click();
        const dialog = page.getByRole('dialog', { name: dialogName });
        await dialog.waitFor();
        await page.waitForFunction(() => !document.querySelector('.modal .spinner-border'));
        await axe(page, `User ${action} dialog @${width}`, findings);
        await shot(page, `a11y-${slug(action)}-dialog-${width}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
    }
    await visitor.close();
    await page.close();
    expect(report(findings), 'axe violations').toBe('');
  }, 300_000);

  it("two-factor sign-in's dialogs and the login's code step pass axe at 1366 and 390 px", async () => {
    const findings: Finding[] = [];
    const fresh = await apiCreateUser(t.adminToken, 'User', 'A11y Two Factor');
    const page = await t.page(fresh);
    const tf = twoFactorUi;
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await page.goto(`/profile/${fresh.id}`);
      await settled(page);
      await page.getByRole('button', { name: tf.enable }).click();
      const setup = page.getByRole('dialog', { name: tf.setupTitle });
      await setup.getByTestId('two-factor-secret').waitFor();
      await axe(page, `two-factor set-up dialog @${width}`, findings);
      await setup.getByRole('button', { name: tf.cancel }).click();
      await setup.waitFor({ state: 'detached' });
    }
    // On, its other dialogs.
    const { token } = await apiLogin(fresh.email, fresh.password);
    await apiEnrolTwoFactor(token);
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await page.goto(`/profile/${fresh.id}`);
      await settled(page);
      for (const [button, title] of [
        [tf.regenerate, tf.regenerateTitle],
        [tf.disable, tf.disableTitle],
      ] as const) {
        await page.getByRole('button', { name: button, exact: true }).click();
        const dialog = page.getByRole('dialog', { name: title });
        await dialog.waitFor();
        await axe(page, `two-factor ${button} dialog @${width}`, findings);
        await shot(page, `a11y-two-factor-${slug(button)}-${width}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
      const visitor = await newPage(t.browser);
      await visitor.setViewportSize({ width, height });
      await visitor.goto('/login');
      await visitor.getByLabel('Email').fill(fresh.email);
      await visitor.getByLabel('Password').fill(fresh.password);
      await visitor.getByRole('button', { name: 'Login' }).click();
      await visitor.getByRole('heading', { name: twoFactorMessages.stepTitle }).waitFor();
      await axe(visitor, `login code step @${width}`, findings);
      await visitor.context().close();
    }
    await page.close();
    expect(report(findings), 'axe violations').toBe('');
  }, 300_000);

  it('the skip link is the first Tab stop, shows when focused and moves focus to main', async () => {
    const page = await t.page();
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await page.goto('/campaigns');
      await settled(page);
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to main content' });
      expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
      const box = await skip.boundingBox();
      expect(box, 'skip link drawn when focused').not.toBeNull();
      expect(box!.width).toBeGreaterThan(20);
      expect(box!.height).toBeGreaterThan(10);
      expect(box!.y).toBeGreaterThanOrEqual(0);
      await shot(page, `a11y-skip-link-${width}`);
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
      // The next Tab stop lies inside main, past the menu and the top bar.
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement)),
      ).toBe(true);
    }
    await page.close();
  });

  it('a refused form marks its fields invalid, tied to their errors, and focuses the first', async () => {
    const page = await t.page(people.User);
    await page.goto('/tickets');
    await settled(page);
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Ticket' });
    await dialog.getByRole('button', { name: 'Submit' }).click();
    const subject = dialog.getByLabel('Subject');
    await expect.poll(() => subject.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await subject.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await subject.getAttribute('aria-describedby')) ?? '';
    const error = page.locator(`#${describedBy.split(' ').at(-1)}`);
    expect((await error.innerText()).trim().length).toBeGreaterThan(0);
    expect(await dialog.getByLabel('Description').getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'a11y-form-errors');
    await page.close();
  });
});
