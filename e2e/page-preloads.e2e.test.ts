import { describe, expect, it } from 'vitest';
import { LINKS_PER_TASK } from '../apps/web/src/lib/spread-preloads.js';
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

  it("names a screen's and its form's chunks to the browser a few per task, each once", async () => {
    const page = await t.page();
    // Each MutationObserver delivery holds what one task (with its microtasks) added; the links
    // the parser adds (the page's own) do not count.
    await page.addInitScript(() => {
      const w = window as unknown as { linkBatches: number[] };
      w.linkBatches = [];
      new MutationObserver((records) => {
        let links = 0;
        for (const r of records)
          for (const n of Array.from(r.addedNodes)) if (n.nodeName === 'LINK') links++;
        if (links > 0 && document.readyState !== 'loading') w.linkBatches.push(links);
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${baseUrl()}/campaigns`);
    // At this width the create form shows at once, so its chunks load too.
    await page.getByRole('button', { name: 'Create Campaign' }).waitFor();
    const { batches, hrefs, listed } = await page.evaluate(() => {
      const deps = JSON.parse(document.getElementById('chunk-deps')!.textContent!) as {
        files: string[];
        modules: Record<string, number[]>;
      };
      const of = (m: string) => (deps.modules[m] ?? []).map((i) => `/${deps.files[i]}`);
      return {
        batches: (window as unknown as { linkBatches: number[] }).linkBatches,
        hrefs: Array.from(document.querySelectorAll('link[rel=modulepreload]')).map(
          (l) => new URL((l as HTMLLinkElement).href).pathname,
        ),
        listed: [
          ...of('features/campaigns/campaigns-page'),
          ...of('features/campaigns/create/create-campaign-form'),
        ],
      };
    });
    expect(batches.length).toBeGreaterThan(3);
    expect(Math.max(...batches)).toBeLessThanOrEqual(LINKS_PER_TASK);
    expect(listed.length).toBeGreaterThan(20);
    for (const href of listed) expect(hrefs, href).toContain(href);
    expect(new Set(hrefs).size).toBe(hrefs.length);
    await page.close();
  });

  it('names its icon inline, so the browser asks for no /favicon.ico', async () => {
    const page = await t.browser.newPage();
    await page.goto(`${baseUrl()}/login`);
    const href = await page.locator('link[rel=icon]').getAttribute('href');
    expect(href).toMatch(/^data:image\/svg\+xml,/);
    // It is a picture the browser can draw (the page's CSP allows data: images).
    const width = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return img.naturalWidth;
    }, href!);
    expect(width).toBeGreaterThan(0);
    await page.close();
  });
});
