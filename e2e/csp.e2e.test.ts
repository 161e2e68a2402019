import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  adminCredentials,
  apiCreateUser,
  apiLogin,
  baseUrl,
  journey,
  loginUi,
  newPage,
  shot,
} from './support/browser.js';

let user: { email: string; password: string };
let resellerEmail: string;

/** A 1×1 PNG: enough for the logo preview to load from its blob: URL. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

declare global {
  interface Window {
    __cspViolations?: string[];
    __inlineRan?: boolean;
  }
}

/**
 * Records every CSP violation the page reports, from both the DOM event (set up before any
 * page script runs) and the console, where Chromium also logs blocked loads.
 */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) fromConsole.push(m.text());
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations!.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return async () => [...fromConsole, ...(await page.evaluate(() => window.__cspViolations ?? []))];
}

const t = journey(async (adminToken) => {
  const reseller = await apiCreateUser(adminToken, 'Reseller', 'Csp Reseller');
  resellerEmail = reseller.email;
  const resellerToken = (await apiLogin(reseller.email, reseller.password)).token;
  user = await apiCreateUser(resellerToken, 'User', 'Csp User');
});

describe('the web app under its Content-Security-Policy', () => {
  it('is served with the strict policy', async () => {
    const res = await fetch(`${baseUrl()}/campaigns`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('logs in, shows the dashboard and counts typed numbers through the worker', async () => {
    const page = await newPage(t.browser);
    const violations = await watchCsp(page);
    await loginUi(page, user.email, user.password);
    await page.getByRole('link', { name: 'Dashboard' }).waitFor();
    await page.getByRole('heading').first().waitFor();
    await shot(page, 'csp-dashboard');

    await page.goto('/campaigns');
    const form = page.getByRole('form', { name: 'Create Campaign' });
    await form.waitFor();
    await form.getByLabel('Numbers', { exact: true }).fill('9876543210\n9876543211, 98765');
    await form.getByText('Total recipients: 2').waitFor();
    await shot(page, 'csp-create-campaign');
    expect(await violations()).toEqual([]);
    await page.context().close();
  });

  it('previews a picked branding logo from its blob: URL', async () => {
    const page = await newPage(t.browser);
    const violations = await watchCsp(page);
    const admin = adminCredentials();
    await loginUi(page, admin.email, admin.password);
    await page.goto('/users');
    // The User's row names its parent Reseller too.
    const row = page
      .getByRole('row')
      .filter({ hasText: resellerEmail })
      .filter({ hasNotText: user.email });
    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByLabel('Logo', { exact: true })
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PIXEL });
    const preview = dialog.getByAltText('Logo preview');
    expect(await preview.getAttribute('src')).toMatch(/^blob:/);
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    await shot(page, 'csp-logo-preview');
    expect(await violations()).toEqual([]);
    await page.context().close();
  });

  it('shows the API reference with no script and no violation', async () => {
    const page = await newPage(t.browser);
    const violations = await watchCsp(page);
    const res = await page.goto('/api/docs');
    expect(res?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page.getByRole('heading', { name: 'Herald API v1', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Campaigns', level: 2 }).waitFor();
    // Its stylesheet, from the same origin, applied.
    expect(
      await page
        .locator('pre')
        .first()
        .evaluate((el) => getComputedStyle(el).whiteSpace),
    ).toBe('pre-wrap');
    expect(await page.locator('script').count()).toBe(0);
    await shot(page, 'csp-api-docs');
    expect(await violations()).toEqual([]);
    await page.context().close();
  });

  it('blocks an injected inline script, and the watcher sees it', async () => {
    const page = await newPage(t.browser);
    const violations = await watchCsp(page);
    await page.goto('/login');
    await page.getByLabel('Email').waitFor();
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.body.append(s);
    });
    await expect.poll(violations).toContainEqual(expect.stringContaining('script-src'));
    expect(await page.evaluate(() => window.__inlineRan)).toBeUndefined();
    await page.context().close();
  });
});
