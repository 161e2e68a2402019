import { describe, expect, it } from 'vitest';
import { baseUrl, journey } from './support/browser.js';

// The built pages name their first chunks for the browser to fetch with the entry
// (apps/web/build/page-preloads.ts; docs/performance.md, Page speed).

const t = journey();

/** The modulepreload paths of the page the server sends for `path`. */
async function preloadsOf(path: string): Promise<string[]> {
  const res = await fetch(`${baseUrl()}${path}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  return [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
    (m) => m[1]!,
  );
}

describe('pages that preload their first chunks', () => {
  it('the login page preloads its own chunk, a signed-in route the app shell', async () => {
    const login = await preloadsOf('/login');
    expect(login.some((f) => /\/assets\/login-page-[\w-]+\.js$/.test(f))).toBe(true);
    expect(login.some((f) => f.includes('app-routes'))).toBe(false);
    const app = await preloadsOf('/campaigns?status=Pending');
    expect(app.some((f) => /\/assets\/app-routes-[\w-]+\.js$/.test(f))).toBe(true);
    expect(app.some((f) => f.includes('login-page'))).toBe(false);
    for (const f of [...login, ...app]) {
      const res = await fetch(`${baseUrl()}${f}`);
      expect(res.status, f).toBe(200);
      expect(res.headers.get('content-type'), f).toContain('javascript');
    }
  });

  it('a signed-in page fetches the shell once, from the page, and draws', async () => {
    const page = await t.page();
    // Away from the signed-in page first: its own requests are not this load's.
    await page.goto('about:blank');
    // Who asked for each asset: the HTML parser (a <link> or <script> in the page) or a script.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const asked: [string, string][] = [];
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.request.url.includes('/assets/')) asked.push([e.request.url, e.initiator.type]);
    });
    await page.goto(`${baseUrl()}/campaigns`);
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    const shell = asked.filter(([url]) => /\/assets\/app-routes-[\w-]+\.js$/.test(url));
    expect(shell.map(([, by]) => by)).toEqual(['parser']);
    await cdp.detach();
    await page.close();
  });
});
