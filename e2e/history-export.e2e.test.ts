import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { RATE_LIMITS, server as msg } from '@herald/contract';
import {
  adminCredentials,
  apiCreateUser,
  apiGiveCredits,
  apiLogin,
  baseUrl,
  launch,
  loginUi,
  newPage,
  shot,
} from './support/browser.js';

/** Transaction History's Export to Excel shows the server's 429 once the user's exports ran out. */
let browser: Browser;
let user: { email: string; password: string };
let token = '';

beforeAll(async () => {
  browser = await launch();
  const admin = adminCredentials();
  const adminToken = (await apiLogin(admin.email, admin.password)).token;
  user = await apiCreateUser(adminToken, 'User', 'Export Limit User');
  await apiGiveCredits(adminToken, user.email, 'Normal Message - domestic', 5);
  token = (await apiLogin(user.email, user.password)).token;
});
afterAll(() => browser?.close());

describe('history export limit', () => {
  it('shows the rate limit message on Export to Excel', async () => {
    for (let i = 0; i < RATE_LIMITS.historyExportPerUser.max; i++) {
      const res = await fetch(`${baseUrl()}/api/credits/history/export`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const page = await newPage(browser);
    await loginUi(page, user.email, user.password);
    await page.goto('/history');
    const exportButton = page.getByRole('button', { name: 'Export to Excel' });
    await expect.poll(() => exportButton.isEnabled()).toBe(true);
    await exportButton.click();
    await page.getByRole('alert').filter({ hasText: msg.historyExportTooMany }).waitFor();
    await shot(page, 'history-export-limit');
    await page.context().close();
  });
});
