import { describe, expect, it } from 'vitest';
import { PASSWORD_TOO_COMMON, ui } from '@herald/contract';
import { apiCreateUser, apiJson, apiLogin, journey, newPage, shot } from './support/browser.js';

const t = journey();

describe('password policy', () => {
  it('after an Admin reset the user must change the password before anything else', async () => {
    const user = await apiCreateUser(t.adminToken, 'User', 'Reset By Admin');
    await apiJson('PUT', `/api/users/admin-reset-password/${user.id}`, t.adminToken, {
      newPassword: 'admin-chose-this-1',
    });

    const page = await newPage(t.browser);
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('admin-chose-this-1');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText(ui.profile.mustChangePassword).waitFor();
    // Nothing else: no menu, and another route shows the same screen.
    expect(await page.getByRole('button', { name: 'Logout' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    await page.goto('/history');
    await page.getByText(ui.profile.mustChangePassword).waitFor();
    await shot(page, 'forced-change-password');

    const fill = async (current: string, next: string, confirm = next) => {
      await page.getByLabel('Current Password').fill(current);
      await page.getByLabel('New Password', { exact: true }).fill(next);
      await page.getByLabel('Confirm New Password').fill(confirm);
      await page.getByRole('button', { name: 'Change Password' }).click();
    };
    // A common password is refused in the browser, with the contract's message.
    await fill('admin-chose-this-1', 'Password123');
    await page.getByText(PASSWORD_TOO_COMMON).waitFor();
    await shot(page, 'forced-change-password-common');

    await fill('admin-chose-this-1', 'my-own-secret-77');
    await page.waitForURL('**/user-dashboard');
    // The dashboard's calls now answer: its figures load.
    await page.getByTestId('dashboard-credits-remaining').getByText('0', { exact: true }).waitFor();
    await shot(page, 'forced-change-password-done');
    const stored = await page.evaluate(() => localStorage.getItem('user'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ mustChangePassword: false });
    await page.context().close();

    const again = await apiLogin(user.email, 'my-own-secret-77');
    expect(again.user.mustChangePassword).toBe(false);
  });
});
