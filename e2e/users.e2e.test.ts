import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PASSWORD_TOO_COMMON, USERS_PAGE_DEFAULT, ui } from '@herald/contract';
import {
  adminCredentials,
  apiCreateUser,
  apiLogin,
  journey,
  loginUi,
  newPage,
  shot,
} from './support/browser.js';
import { pickSearchOption } from './support/search-select.js';

const t = journey();

const stamp = Date.now() % 1e7;

/** Fills and submits the Add User dialog; answers the dialog's success text. */
async function addUser(
  page: Page,
  fields: { name: string; email: string; role: string; password?: string },
): Promise<string> {
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(fields.name);
  await dialog.getByLabel('Email').fill(fields.email);
  if (fields.password) await dialog.getByLabel('Password').fill(fields.password);
  await dialog.getByLabel('Role').selectOption(fields.role);
  await dialog.getByLabel('State').selectOption('Karnataka');
  await dialog.getByLabel('City').selectOption('Mysuru');
  await dialog.getByRole('button', { name: /^(Create|Add|Save)/ }).click();
  const success = dialog.getByText(ui.users.created, { exact: false });
  await success.waitFor();
  const text = await success.innerText();
  await dialog
    .getByRole('button', { name: /Close|Cancel/ })
    .first()
    .click();
  await dialog.waitFor({ state: 'hidden' });
  return text;
}

describe('user management', () => {
  it('runs the hierarchy through the dialogs: Admin → Reseller → Sub-Reseller → User', async () => {
    const page = await t.page();
    await page.goto('/users');
    await page.getByRole('heading', { name: 'User Management' }).waitFor();

    // The Add User dialog offers the Admin's roles only, and the city list follows the state.
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog');
    const roles = await dialog.getByLabel('Role').locator('option').allInnerTexts();
    expect(roles.filter((r) => r.trim())).toEqual(
      expect.arrayContaining(['User', 'Sub-Reseller', 'Reseller']),
    );
    await dialog.getByLabel('State').selectOption('Tamil Nadu');
    const cities = await dialog.getByLabel('City').locator('option').allInnerTexts();
    expect(cities).toEqual(expect.arrayContaining(['Chennai', 'Madurai']));
    await shot(page, 'add-user-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const resellerEmail = `reseller.${stamp}@e2e.local`;
    await addUser(page, {
      name: 'Ravi Reseller',
      email: resellerEmail,
      role: 'Reseller',
      password: 'reseller-pass-1',
    });
    // A generated password is shown once when none is typed.
    const generated = await addUser(page, {
      name: 'Generated Gita',
      email: `gita.${stamp}@e2e.local`,
      role: 'User',
    });
    expect(generated).toMatch(/password is [A-Za-z0-9]{16}/);
    await page.getByRole('cell', { name: resellerEmail }).waitFor();
    await shot(page, 'users-admin');

    // A duplicate email gets the server's message.
    await page.getByRole('button', { name: 'Add User' }).click();
    await dialog.getByLabel('Name').fill('Dup');
    await dialog.getByLabel('Email').fill(resellerEmail.toUpperCase());
    await dialog.getByLabel('Role').selectOption('User');
    await dialog.getByRole('button', { name: /^(Create|Add|Save)/ }).click();
    await dialog.getByText('A user with this email already exists.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Row click opens the profile.
    await page.getByRole('cell', { name: resellerEmail }).click();
    await page.waitForURL('**/profile/**');
    await page.getByText('Ravi Reseller').first().waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Change Password' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Logout' }).click();

    // The Reseller ('My Users') creates a Sub-Reseller, which creates a User.
    await loginUi(page, resellerEmail, 'reseller-pass-1');
    await page.goto('/users');
    await page.getByRole('heading', { name: 'My Users' }).waitFor();
    const subEmail = `sub.${stamp}@e2e.local`;
    await addUser(page, {
      name: 'Sunil Sub',
      email: subEmail,
      role: 'Sub-Reseller',
      password: 'sub-pass-123',
    });
    await page.getByRole('button', { name: 'Logout' }).click();

    await loginUi(page, subEmail, 'sub-pass-123');
    await page.goto('/users');
    await page.getByRole('button', { name: 'Add User' }).click();
    const subRoles = await dialog.getByLabel('Role').locator('option').allInnerTexts();
    expect(subRoles.filter((r) => r.trim() && !/select/i.test(r))).toEqual(['User']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const userEmail = `user.${stamp}@e2e.local`;
    await addUser(page, {
      name: 'Uma User',
      email: userEmail,
      role: 'User',
      password: 'uma-pass-123',
    });
    await page.getByRole('cell', { name: userEmail }).waitFor();
    // The Sub-Reseller sees its own subtree only.
    expect(await page.getByRole('cell', { name: resellerEmail }).count()).toBe(0);
    await page.context().close();
  });

  it('lets the Admin edit a user, block it, and reset its password after confirming', async () => {
    const page = await t.page();
    await page.goto('/users');
    const email = `edit.${stamp}@e2e.local`;
    await addUser(page, { name: 'Edna Edit', email, role: 'User', password: 'edna-pass-123' });

    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Edna Edited');
    await dialog.getByLabel('Status').selectOption('Blocked');
    await shot(page, 'edit-user-dialog');
    await dialog.getByRole('button', { name: /^Save/ }).click();
    await dialog.getByText(ui.users.updated).waitFor();

    // Reset password: empty → message; then the confirmation names the email.
    await dialog.getByRole('button', { name: 'Reset Password' }).click();
    await dialog.getByText(ui.users.enterNewPassword).waitFor();
    // A common password is refused in the browser, before the confirmation.
    await dialog.getByLabel('New Password').fill('sunshine1');
    await dialog.getByRole('button', { name: 'Reset Password' }).click();
    await dialog.getByText(PASSWORD_TOO_COMMON).waitFor();
    await dialog.getByLabel('New Password').fill('edna-new-pass-1');
    await dialog.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText(ui.users.confirmReset(email)).waitFor();
    await page.getByRole('button', { name: /^(Yes|Confirm)/ }).click();
    await page.getByText(ui.users.resetDone).waitFor();
    await page.keyboard.press('Escape');

    await row.getByText('Blocked').waitFor();
    await expect.poll(() => row.getByText('Edna Edited').count()).toBe(1);
    await page.context().close();
  });

  it('lets a user change its own password from its profile', async () => {
    const page = await t.page();
    await page.goto('/users');
    const email = `self.${stamp}@e2e.local`;
    await addUser(page, { name: 'Sam Self', email, role: 'User', password: 'sam-pass-1234' });
    await page.getByRole('button', { name: 'Logout' }).click();

    await loginUi(page, email, 'sam-pass-1234');
    await page.getByRole('navigation').getByRole('link', { name: 'My Profile' }).click();
    await page.getByText('Personal Information').waitFor();
    await shot(page, 'profile-user');
    await page.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Current Password').fill('sam-pass-1234');
    await dialog.getByLabel('New Password', { exact: true }).fill('sam-new-pass-1');
    await dialog.getByLabel('Confirm New Password').fill('sam-new-pass-2');
    await dialog.getByRole('button', { name: /^(Change|Save|Update)/ }).click();
    await dialog.getByText(ui.profile.passwordsMismatch).waitFor();
    await dialog.getByLabel('Confirm New Password').fill('sam-new-pass-1');
    await dialog.getByRole('button', { name: /^(Change|Save|Update)/ }).click();
    await dialog.getByText(ui.profile.passwordChanged).waitFor();
    // The session goes on with the fresh token.
    await page.reload();
    await page.getByText('Personal Information').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await loginUi(page, email, 'sam-new-pass-1');
    await page.context().close();
  });
});

/** The Users table's body rows. */
const userRows = (page: Page) => page.getByRole('table', { name: 'Users' }).locator('tbody tr');

async function searchUsers(page: Page, term: string) {
  await page.getByRole('searchbox', { name: 'Search users' }).fill(term);
}

describe('user list pages and search', () => {
  const PAGED = USERS_PAGE_DEFAULT + 5;
  let reseller: Awaited<ReturnType<typeof apiCreateUser>>;
  let sub: Awaited<ReturnType<typeof apiCreateUser>>;
  const pagers: Awaited<ReturnType<typeof apiCreateUser>>[] = [];

  beforeAll(async () => {
    reseller = await apiCreateUser(t.adminToken, 'Reseller', 'Paging Reseller');
    const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
    sub = await apiCreateUser(resellerToken, 'Sub-Reseller', 'Paging Sub');
    const subToken = (await apiLogin(sub.email, sub.password)).token;
    for (let i = 0; i < PAGED; i++)
      pagers.push(await apiCreateUser(subToken, 'User', `Pager ${i}`));
  });

  it('loads more as each manager scrolls, and searches name or email as they type', async () => {
    const admin = adminCredentials();
    const page = await newPage(t.browser);
    const cases = [
      { email: admin.email, password: admin.password, total: undefined },
      { email: reseller.email, password: reseller.password, total: PAGED + 1 },
      { email: sub.email, password: sub.password, total: PAGED },
    ];
    for (const c of cases) {
      await loginUi(page, c.email, c.password);
      await page.goto('/users');
      await userRows(page)
        .nth(USERS_PAGE_DEFAULT - 1)
        .waitFor();
      expect(await userRows(page).count()).toBe(USERS_PAGE_DEFAULT);
      await page
        .getByRole('table', { name: 'Users' })
        .locator('tbody tr')
        .last()
        .scrollIntoViewIfNeeded();
      await page.mouse.wheel(0, 5000);
      await expect.poll(() => userRows(page).count()).toBeGreaterThan(USERS_PAGE_DEFAULT);
      if (c.total !== undefined) {
        await page.getByText('End of users').waitFor();
        expect(await userRows(page).count()).toBe(c.total);
      }
      if (c.email === sub.email) await shot(page, 'users-sub-reseller-load-more');

      // "Pager 4" and "Pager 40" … "Pager 49", in any case; then a part of one email.
      await searchUsers(page, 'pAGER 4');
      await expect.poll(() => userRows(page).count()).toBe(11);
      expect(await page.getByText('End of users').count()).toBe(1);
      await searchUsers(page, pagers[7]!.email.slice(0, 12));
      await expect
        .poll(() => userRows(page).allInnerTexts())
        .toEqual([expect.stringContaining(pagers[7]!.email)]);
      if (c.email === reseller.email) await shot(page, 'users-reseller-search');
      await searchUsers(page, 'no such user anywhere');
      await page.getByText(ui.users.noMatches).waitFor();
      await page.getByRole('button', { name: 'Logout' }).click();
    }
    await page.context().close();
  });

  it('finds a user in the credit form by typing, beyond the first page', async () => {
    const page = await t.page(sub);
    await page.goto('/reseller-credits');
    // The oldest user is not among the newest; typing finds it.
    const oldest = pagers[0]!;
    const label = `${oldest.name} (${oldest.email})`;
    const box = await pickSearchOption(page, 'User', oldest.email.slice(0, 14), label);
    await expect.poll(() => box.inputValue()).toBe(label);
    await page.getByText(/^Available credits: 0$/).waitFor();
    // Another search leaves the picked user shown once the box closes.
    await box.click();
    await box.fill('Pager 3');
    await page
      .getByRole('option', { name: /^Pager 3\b/ })
      .first()
      .waitFor();
    await shot(page, 'credit-form-user-search');
    await page.keyboard.press('Escape');
    await expect.poll(() => box.inputValue()).toBe(label);
    // The keyboard picks as in a select: type, arrow down to the second match, Enter.
    await box.click();
    await box.fill('Pager 3');
    await page.getByRole('option', { name: /^Pager 30\b/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => box.inputValue()).toMatch(/^Pager 38 \(/);
    await page.context().close();
  });
});
