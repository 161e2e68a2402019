import { describe, expect, it } from 'vitest';
import type { Role } from '@herald/contract';
import { adminCredentials, apiCreateUser, apiLogin, journey, shot } from './support/browser.js';

/** Each role's menu, in order, with its labels and targets (docs/product.md, Roles and scope). */
const MENUS: Record<Role, [label: string, path: string][]> = {
  Admin: [
    ['Dashboard', '/admin'],
    ['My Profile', '/profile/'],
    ['User Management', '/users'],
    ['Campaigns', '/campaigns'],
    ['Suppression List', '/suppressions'],
    ['Credit Management', '/credits'],
    ['Reports', '/reports'],
    ['Transaction History', '/history'],
    ['Analytics', '/analytics'],
    ['Support Tickets', '/tickets'],
    ['Manage Announcements', '/admin-announcements'],
    ['View Announcements', '/announcements-history'],
    ['Backup & Data', '/backup'],
    ['Storage Management', '/storage'],
    ['Providers', '/providers'],
    ['Whitelabel Settings', '/whitelabel-settings'],
    ['API & Webhooks', '/api-keys'],
    ['Audit Log', '/audit-log'],
  ],
  Reseller: [
    ['Dashboard', '/reseller-dashboard'],
    ['My Profile', '/profile/'],
    ['My Users', '/users'],
    ['Credit Management', '/reseller-credits'],
    ['Campaigns', '/campaigns'],
    ['Suppression List', '/suppressions'],
    ['Transaction History', '/history'],
    ['Analytics', '/analytics'],
    ['Support Tickets', '/tickets'],
    ['Announcements', '/announcements-history'],
    ['Whitelabel Settings', '/whitelabel-settings'],
    ['API & Webhooks', '/api-keys'],
    ['Audit Log', '/audit-log'],
  ],
  'Sub-Reseller': [
    ['Dashboard', '/subreseller-dashboard'],
    ['My Profile', '/profile/'],
    ['User Management', '/users'],
    ['Credit Management', '/reseller-credits'],
    ['Campaigns', '/campaigns'],
    ['Suppression List', '/suppressions'],
    ['Transaction History', '/history'],
    ['Support Tickets', '/tickets'],
    ['Announcements', '/announcements-history'],
    ['Whitelabel Settings', '/whitelabel-settings'],
    ['API & Webhooks', '/api-keys'],
    ['Audit Log', '/audit-log'],
  ],
  User: [
    ['Dashboard', '/user-dashboard'],
    ['My Profile', '/profile/'],
    ['My Campaigns', '/campaigns'],
    ['Suppression List', '/suppressions'],
    ['Transaction History', '/history'],
    ['Support Tickets', '/tickets'],
    ['Announcements', '/announcements-history'],
    ['API & Webhooks', '/api-keys'],
    ['Audit Log', '/audit-log'],
  ],
};

/** Dashboard card titles. */
const CARDS: Record<Role, string[]> = {
  Admin: ['Total Users', 'Active Campaigns', 'Credits Sent (Month)', 'Open Support Tickets'],
  Reseller: [
    'My Total Users',
    'My Active Campaigns',
    'Credits Used (Month)',
    'My Open Tickets',
    'Credits Remaining',
  ],
  'Sub-Reseller': [
    'My Total Users',
    'My Active Campaigns',
    'Credits Used (Month)',
    'My Open Tickets',
    'Credits Remaining',
  ],
  User: ['Campaigns Sent', 'Credits Remaining', 'Avg. Success Rate', 'My Open Tickets'],
};

const ALL_PATHS = [
  '/admin',
  '/reseller-dashboard',
  '/subreseller-dashboard',
  '/user-dashboard',
  '/users',
  '/credits',
  '/reports',
  '/analytics',
  '/admin-announcements',
  '/backup',
  '/storage',
  '/providers',
  '/whitelabel-settings',
  '/reseller-credits',
];

const creds = {} as Record<Role, { email: string; password: string }>;

const t = journey(async (adminToken) => {
  creds.Admin = adminCredentials();
  const reseller = await apiCreateUser(adminToken, 'Reseller', 'Nav Reseller');
  creds.Reseller = reseller;
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  const sub = await apiCreateUser(resellerToken, 'Sub-Reseller', 'Nav Sub');
  creds['Sub-Reseller'] = sub;
  const subToken = (await apiLogin(sub.email, sub.password)).token;
  creds.User = await apiCreateUser(subToken, 'User', 'Nav User');
});

describe.each(['Admin', 'Reseller', 'Sub-Reseller', 'User'] as Role[])('%s', (role) => {
  it('lands on its dashboard with its menu, cards and allowed routes', async () => {
    const page = await t.page(creds[role]);
    const home = MENUS[role][0]![1];
    await page.waitForURL(`**${home}`);
    const nav = page.getByRole('navigation');
    const links = nav.getByRole('link');
    await expect.poll(() => links.allInnerTexts()).toEqual(MENUS[role].map(([l]) => l));
    for (const [i, [, href]] of MENUS[role].entries()) {
      expect(await links.nth(i).getAttribute('href')).toContain(href);
    }
    // The active link is highlighted.
    await expect
      .poll(() => nav.getByRole('link', { name: 'Dashboard' }).getAttribute('class'))
      .toContain('active');
    for (const title of CARDS[role]) {
      await expect.poll(() => page.getByText(title, { exact: true }).count()).toBeGreaterThan(0);
    }
    await expect.poll(() => page.getByText(/^Welcome, /).count()).toBe(1);
    await expect.poll(() => page.getByText(/Member since/).count()).toBe(1);
    await shot(page, `dashboard-${role.toLowerCase()}`);

    // Every allowed route opens inside the layout, with its menu entry active.
    for (const [label] of MENUS[role]) {
      await nav.getByRole('link', { name: label, exact: true }).click();
      await expect
        .poll(() => nav.getByRole('link', { name: label, exact: true }).getAttribute('class'))
        .toContain('active');
      expect(new URL(page.url()).pathname).not.toBe('/unauthorized');
    }

    // Routes outside the role's list go to /unauthorized.
    const allowed = new Set(MENUS[role].map(([, p]) => p));
    for (const p of ALL_PATHS.filter((x) => !allowed.has(x))) {
      await page.goto(p);
      await page.waitForURL('**/unauthorized');
      await expect.poll(() => page.getByText('Unauthorized Access').count()).toBe(1);
    }

    // The address of the screen Providers replaced leads there, so only the Admin gets in.
    await page.goto('/delivery-settings');
    await page.waitForURL(allowed.has('/providers') ? '**/providers' : '**/unauthorized');

    // Unknown paths go to / and on to the dashboard.
    await page.goto('/no-such-page');
    await page.waitForURL(`**${home}`);

    // Logout clears the session.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto(home);
    await page.waitForURL('**/login');
    await page.context().close();
  });
});
