// Cross-check of the manifest figures: load routes in headless Chromium from the running server
// (which serves the bench's web build) and gzip every JavaScript response it fetched.
import { existsSync } from 'node:fs';
import { CHROMIUM, gzSize } from './lib.mjs';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function observe(browser, url, session) {
  const context = await browser.newContext();
  try {
    if (session) {
      await context.addInitScript((s) => {
        localStorage.setItem('token', s.token);
        localStorage.setItem('user', s.user);
      }, session);
    }
    const page = await context.newPage();
    const bodies = new Map();
    const pending = [];
    page.on('response', (res) => {
      const { pathname } = new URL(res.url());
      if (!pathname.endsWith('.js') || res.status() !== 200) return;
      pending.push(
        res
          .body()
          .then((b) => bodies.set(pathname.replace(/^\//, ''), gzSize(b)))
          .catch(() => {}),
      );
    });
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {});
    await Promise.all(pending);
    const files = [...bodies].map(([file, gz]) => ({ file, gz }));
    return {
      path: new URL(page.url()).pathname,
      js: files,
      jsGz: files.reduce((n, f) => n + f.gz, 0),
    };
  } finally {
    await context.close();
  }
}

/** JS fetched by /login (logged out) and by / (logged in: redirects to the dashboard). */
export async function observeRoutes(baseUrl, login) {
  if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is missing` };
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const session = { token: login.token, user: JSON.stringify(login.user) };
    return {
      login: await observe(browser, `${baseUrl}/login`, null),
      dashboard: await observe(browser, `${baseUrl}/`, session),
    };
  } finally {
    await browser.close();
  }
}
