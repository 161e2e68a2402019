import { describe, expect, it } from 'vitest';
import { RATE_LIMITS, server as msg } from '@herald/contract';
import {
  apiCreateUser,
  apiGiveCredits,
  apiLogin,
  baseUrl,
  journey,
  shot,
} from './support/browser.js';

/** Transaction History's Export to Excel shows the server's 429 once the user's exports ran out. */
let user: { email: string; password: string };
let token = '';

const t = journey(async (adminToken) => {
  user = await apiCreateUser(adminToken, 'User', 'Export Limit User');
  await apiGiveCredits(adminToken, user.email, 'Normal Message - domestic', 5);
  token = (await apiLogin(user.email, user.password)).token;
});

describe('history export limit', () => {
  it('shows the rate limit message on Export to Excel', async () => {
    for (let i = 0; i < RATE_LIMITS.historyExportPerUser.max; i++) {
      const res = await fetch(`${baseUrl()}/api/credits/history/export`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const page = await t.page(user);
    await page.goto('/history');
    const exportButton = page.getByRole('button', { name: 'Export to Excel' });
    await expect.poll(() => exportButton.isEnabled()).toBe(true);
    await exportButton.click();
    await page.getByRole('alert').filter({ hasText: msg.historyExportTooMany }).waitFor();
    await shot(page, 'history-export-limit');
    await page.context().close();
  });
});
