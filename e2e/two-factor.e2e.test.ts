import { describe, expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import {
  twoFactorMessages as m,
  twoFactorUi as ui2fa,
  type LoginReply,
  type RecoveryCodesReply,
} from '@herald/contract';
import {
  adminCredentials,
  apiCreateUser,
  apiJson,
  apiLogin,
  journey,
  newPage,
  shot,
  shotWidths,
  type Credentials,
} from './support/browser.js';
import { apiEnrolTwoFactor, awayFromStepEdge, totpCode } from './support/two-factor.js';

/**
 * Two-factor sign-in in the browser (docs/product.md, Two-factor sign-in): enrolment on My
 * Profile by reading the shown secret, sign-in with a code, a replayed code refused, sign-in
 * with a recovery code; the Admin's requirement holding a Reseller to the set-up page, and the
 * Admin's reset from User Management. The Admin's own two-factor sign-in and the requirement
 * are undone at the end, so the other journeys log in with the password alone.
 */
const t = journey();

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function expectNoAxeViolations(page: Page, where: string) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  expect(
    violations.map((v) => `${where}: ${v.id} at ${v.nodes[0]?.target.join(' ')}`).join('\n'),
  ).toBe('');
}

/** Email and password on the login page, up to the code step. */
async function passwordStep(page: Page, who: Credentials) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('heading', { name: m.stepTitle }).waitFor();
}

async function codeStep(page: Page, code: string) {
  await page.getByLabel(m.codeLabel).fill(code);
  await page.getByRole('button', { name: m.verify }).click();
}

/** Reads the secret the set-up shows, types its code, and returns the recovery codes shown. */
async function enrolOnScreen(page: Page, scope: Page | ReturnType<Page['getByRole']>) {
  const secretText = scope.getByTestId('two-factor-secret');
  await secretText.waitFor();
  const secret = (await secretText.innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const qr = scope.getByRole('img', { name: ui2fa.qrAlt });
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
  await awayFromStepEdge();
  await scope.getByLabel(ui2fa.confirmStep).fill(totpCode(secret, -1));
  await scope.getByRole('button', { name: ui2fa.confirm }).click();
  const list = scope.getByTestId('recovery-codes');
  await list.waitFor();
  const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((c) => c.trim());
  expect(recoveryCodes).toHaveLength(10);
  return { secret, recoveryCodes };
}

describe('two-factor sign-in', () => {
  it('a User enrols on My Profile, signs in with a code, is refused the same code again, then signs in with a recovery code', async () => {
    const user = await apiCreateUser(t.adminToken, 'User', 'Two Factor User');
    const page = await t.page(user);
    await page.goto(`/profile/${user.id}`);
    await page.getByRole('button', { name: ui2fa.enable }).click();
    const dialog = page.getByRole('dialog', { name: ui2fa.setupTitle });
    await dialog.getByTestId('two-factor-secret').waitFor();
    await expectNoAxeViolations(page, 'set-up dialog');
    await shotWidths(page, 'two-factor-setup');
    const { secret, recoveryCodes } = await enrolOnScreen(page, dialog);
    await expectNoAxeViolations(page, 'recovery codes');
    await shotWidths(page, 'two-factor-recovery-codes');
    await dialog.getByRole('button', { name: ui2fa.codesDone }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(ui2fa.recoveryLeft(10)).waitFor();
    await page.context().close();

    // The password alone is no longer enough: the code step follows.
    const signIn = await newPage(t.browser);
    await passwordStep(signIn, user);
    await expectNoAxeViolations(signIn, 'login code step');
    await shotWidths(signIn, 'two-factor-login-step');
    await awayFromStepEdge();
    const code = totpCode(secret);
    await codeStep(signIn, code);
    await signIn.waitForURL('**/user-dashboard');
    await signIn.context().close();

    // The same code again is refused: each code works once.
    const replay = await newPage(t.browser);
    await passwordStep(replay, user);
    await codeStep(replay, code);
    await replay.getByText(m.codeUsed).waitFor();
    await shot(replay, 'two-factor-replay-refused');
    // A recovery code signs in instead.
    await codeStep(replay, recoveryCodes[0]!);
    await replay.waitForURL('**/user-dashboard');
    await replay.context().close();
  });

  it('with the Admin’s requirement a Reseller can only set it up, and the Admin resets it from User Management', async () => {
    const admin = adminCredentials();
    const adminTwoFactor = await apiEnrolTwoFactor(t.adminToken);
    try {
      await apiJson('PUT', '/api/settings/security', t.adminToken, { requireTwoFactor: true });
      const reseller = await apiCreateUser(t.adminToken, 'Reseller', 'Two Factor Reseller');

      // After the password the Reseller sees the set-up and nothing else.
      const page = await newPage(t.browser);
      await page.goto('/login');
      await page.getByLabel('Email').fill(reseller.email);
      await page.getByLabel('Password').fill(reseller.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByRole('heading', { name: ui2fa.requiredTitle }).waitFor();
      await page.getByTestId('two-factor-secret').waitFor();
      await expect.poll(() => page.getByRole('navigation', { name: 'Main menu' }).count()).toBe(0);
      await expectNoAxeViolations(page, 'required set-up page');
      await shotWidths(page, 'two-factor-required');
      const session = await page.evaluate(() => localStorage.getItem('token'));
      const refused = await fetch(new URL('/api/users', page.url()), {
        headers: { authorization: `Bearer ${session}` },
      });
      expect(refused.status).toBe(403);
      await enrolOnScreen(page, page.getByRole('main'));
      await page.getByRole('button', { name: ui2fa.codesDone }).click();
      await page.waitForURL('**/reseller-dashboard');
      await page.context().close();

      // The Admin, signed in with a code, resets the Reseller's two-factor sign-in.
      const adminPage = await newPage(t.browser);
      await passwordStep(adminPage, admin);
      await awayFromStepEdge();
      await codeStep(adminPage, totpCode(adminTwoFactor.secret));
      await adminPage.waitForURL('**/admin');
      await adminPage.goto('/users');
      const requirement = adminPage.getByLabel(ui2fa.settingLabel);
      await expect.poll(() => requirement.isChecked()).toBe(true);
      const row = adminPage.getByRole('row').filter({ hasText: reseller.email });
      await row.getByRole('button', { name: 'Edit' }).click();
      const edit = adminPage.getByRole('dialog', { name: /Edit User/ });
      await edit.getByText(ui2fa.userStatus(true)).waitFor();
      await edit.getByRole('button', { name: ui2fa.resetButton }).click();
      const confirm = adminPage.getByRole('dialog', { name: ui2fa.resetButton });
      await expectNoAxeViolations(adminPage, 'reset two-factor confirmation');
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      await edit.getByText(m.resetDone).waitFor();
      await edit.getByText(ui2fa.userStatus(false)).waitFor();
      await shotWidths(adminPage, 'two-factor-admin-reset');
      await adminPage.keyboard.press('Escape');
      // The switch turns the requirement off again.
      await requirement.click();
      await expect.poll(() => requirement.isChecked()).toBe(false);
      const settings = await apiJson<{ requireTwoFactor: boolean }>(
        'GET',
        '/api/settings/security',
        t.adminToken,
      );
      expect(settings.requireTwoFactor).toBe(false);
      await adminPage.context().close();

      // Reset, the Reseller signs in with the password alone.
      const back = await apiLogin(reseller.email, reseller.password);
      expect((back as LoginReply).token).toBeTruthy();
    } finally {
      await apiJson('PUT', '/api/settings/security', t.adminToken, { requireTwoFactor: false });
      await apiJson<RecoveryCodesReply>('POST', '/api/two-factor/disable', t.adminToken, {
        password: admin.password,
        code: adminTwoFactor.recoveryCodes[0],
      });
    }
  });
});
