import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ui, type CreateApiKeyReply } from '@herald/contract';
import {
  apiBalance,
  apiCreateUser,
  apiGiveCredits,
  apiJson,
  apiLogin,
  campaignRow,
  journey,
  shotWidths,
  type Credentials,
} from './support/browser.js';

/**
 * A test key's campaign (docs/api.md, Test keys) on the screens: the Test badge in the campaign
 * list and details for every role that sees it (the owner, its Sub-Reseller and Reseller, the
 * Admin) and on the owner's profile, while the owner's balance has not moved.
 */

const TYPE = 'Normal Message - domestic';
const COUNT = 17;
let reseller: Credentials & { name: string };
let sub: Credentials & { name: string };
let user: Credentials & { name: string; id: string };
let userToken = '';

const t = journey(async (adminToken) => {
  reseller = await apiCreateUser(adminToken, 'Reseller', 'Test Reseller');
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  sub = await apiCreateUser(resellerToken, 'Sub-Reseller', 'Test Sub');
  const subToken = (await apiLogin(sub.email, sub.password)).token;
  user = await apiCreateUser(subToken, 'User', 'Test Key User');
  userToken = (await apiLogin(user.email, user.password)).token;
  await apiGiveCredits(adminToken, user.email, TYPE, 50);
  const key = await apiJson<CreateApiKeyReply>('POST', '/api/api-keys', userToken, {
    name: 'Trial',
    kind: 'test',
  });
  const recipients = Array.from({ length: COUNT }, (_, i) => String(9_500_000_000 + i));
  await apiJson('POST', '/api/v1/campaigns', key.secret, {
    creditType: TYPE,
    message: 'Tried with a test key',
    recipients,
  });
});

const testRow = (page: Page) =>
  campaignRow(page.getByRole('table', { name: 'Campaigns' }), user.email, COUNT);

/** `who` (the Admin when undefined) sees the badge in its list and in the campaign's details. */
async function seesBadge(who: Credentials | undefined, menuLabel: string, shotName: string) {
  const page = await t.page(who);
  await page.getByRole('navigation').getByRole('link', { name: menuLabel, exact: true }).click();
  await page.waitForURL('**/campaigns');
  const row = testRow(page);
  await row.getByText(ui.campaigns.testBadge, { exact: true }).waitFor();
  await shotWidths(page, shotName);
  await row.getByRole('button', { name: 'Actions' }).click();
  await page.locator('.dropdown-menu.show').getByRole('button', { name: 'View' }).click();
  const dialog = page.getByRole('dialog', { name: 'Campaign Details' });
  await dialog.getByTestId('test-badge').waitFor();
  expect(await dialog.getByTestId('test-badge').getAttribute('title')).toBe(
    ui.campaigns.testBadgeTitle,
  );
  await page.context().close();
}

describe('a test key’s campaign on the screens', () => {
  it('is badged Test for its owner, on its profile too, and charged nothing', async () => {
    expect(await apiBalance(userToken, user.email, TYPE)).toBe(50);
    await seesBadge(user, 'My Campaigns', 'test-campaign-user');
    const page = await t.page(user);
    await page.goto(`/profile/${user.id}`);
    await page.getByTestId('test-badge').first().waitFor();
    await page.context().close();
  });

  it('is badged Test for the Sub-Reseller, the Reseller and the Admin above it', async () => {
    await seesBadge(sub, 'Campaigns', 'test-campaign-sub-reseller');
    await seesBadge(reseller, 'Campaigns', 'test-campaign-reseller');
    await seesBadge(undefined, 'Campaigns', 'test-campaign-admin');
  });
});
