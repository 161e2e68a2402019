import { describe, expect, it } from 'vitest';
import { ui } from '@herald/contract';
import {
  adminCredentials,
  apiCreateUser,
  journey,
  loginUi,
  newPage,
  otpFromOutbox,
  shot,
} from './support/browser.js';

const t = journey();

describe('login', () => {
  it('sends a visitor without a session to /login and shows the login form', async () => {
    const page = await newPage(t.browser);
    await page.goto('/');
    await page.waitForURL('**/login');
    await expect.poll(() => page.getByRole('button', { name: 'Login' }).count()).toBe(1);
    await shot(page, 'login');
    await page.context().close();
  });

  it('shows the server message for a wrong password', async () => {
    const page = await newPage(t.browser);
    await page.goto('/login');
    await page.getByLabel('Email').fill(adminCredentials().email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => page.getByText('Invalid email or password.').count()).toBe(1);
    await page.context().close();
  });

  it('completes forgot-password with the OTP from the outbox, then logs in', async () => {
    const user = await apiCreateUser(t.adminToken, 'User', 'Forgetful User');
    const page = await newPage(t.browser);
    await page.goto('/login');
    await page.getByText('Forgot Password?').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill(user.email);
    await dialog.getByRole('button', { name: /Send OTP/i }).click();
    await dialog.getByLabel('OTP').waitFor();
    await dialog.getByLabel('OTP').fill(await otpFromOutbox(user.email));
    await dialog.getByLabel('New Password').fill('after-reset-pass-1');
    await shot(page, 'forgot-password');
    await dialog.getByRole('button', { name: /Reset Password/i }).click();
    await expect
      .poll(() => dialog.getByText(ui.login.resetSuccessSuffix.trim(), { exact: false }).count())
      .toBe(1);
    // The dialog closes by itself 3 s later.
    await page.getByRole('dialog').waitFor({ state: 'hidden', timeout: 10_000 });
    await loginUi(page, user.email, 'after-reset-pass-1');
    await page.waitForURL('**/user-dashboard');
    await page.context().close();
  });
});
