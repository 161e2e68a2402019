// Page speed as a phone sees it (docs/performance.md, Page speed): Lighthouse 12.2.3 (the last
// release that runs on Node 20), its default mobile preset with simulated throttling, one fresh
// Chromium per page so each load starts with a cold cache. Logged-in pages get the session in
// localStorage first, set on a page of the same origin that loads none of the app's assets,
// and Lighthouse is told not to reset storage. Only the audits the targets need run: some others
// error on recent Chromium.
import { existsSync } from 'node:fs';
import { CHROMIUM } from './lib.mjs';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const AUDITS = [
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'unused-javascript',
];

/** The pages and their targets (LCP in ms): /login, the Admin's dashboard and /campaigns. */
export const LIGHTHOUSE_PAGES = [
  { name: '/login', path: '/login', session: false, lcpTargetMs: 1500 },
  { name: 'dashboard (Admin)', path: '/admin', session: true, lcpTargetMs: 2000 },
  { name: '/campaigns (Admin)', path: '/campaigns', session: true, lcpTargetMs: 2000 },
];
export const TBT_MS = 100;
export const CLS_MAX = 0.02;

async function runPage(base, login, page, runs) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const { chromium } = await import('playwright-core');
  const figures = [];
  // A load Lighthouse could not measure (its runtimeError: no paint seen, a protocol timeout)
  // is reported and tried again, up to twice in all, rather than counted as a NaN.
  let retries = 2;
  for (let i = 0; i < runs; i++) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
    try {
      if (page.session) {
        const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
        const context = browser.contexts()[0] ?? (await browser.newContext());
        const tab = await context.newPage();
        await tab.goto(`${base}/api/health`);
        await tab.evaluate(
          (s) => {
            localStorage.setItem('token', s.token);
            localStorage.setItem('user', s.user);
          },
          { token: login.token, user: JSON.stringify(login.user) },
        );
        await tab.close();
        await browser.close();
      }
      const result = await lighthouse(`${base}${page.path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyAudits: AUDITS,
        disableStorageReset: page.session,
      });
      const failed = result?.lhr.runtimeError;
      if (failed && retries > 0) {
        retries--;
        i--;
        console.log(`${page.name}: a load failed (${failed.code}: ${failed.message}); again`);
        continue;
      }
      const audits = result?.lhr.audits ?? {};
      const unused = audits['unused-javascript']?.details?.overallSavingsBytes;
      figures.push({
        lcpMs: audits['largest-contentful-paint']?.numericValue ?? NaN,
        tbtMs: audits['total-blocking-time']?.numericValue ?? NaN,
        cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
        unusedJsBytes: typeof unused === 'number' ? unused : NaN,
        finalUrl: result?.lhr.finalDisplayedUrl ?? '',
      });
    } finally {
      await chrome.kill();
    }
  }
  return figures;
}

const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

/** Each page's median LCP, TBT, CLS and unused JavaScript over `runs` cold loads. */
export async function measureLighthouse(base, login, runs = 3) {
  if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is missing` };
  const pages = [];
  for (const page of LIGHTHOUSE_PAGES) {
    const runsOf = await runPage(base, login, page, runs);
    pages.push({
      ...page,
      runs: runsOf,
      lcpMs: median(runsOf.map((r) => r.lcpMs)),
      tbtMs: median(runsOf.map((r) => r.tbtMs)),
      cls: median(runsOf.map((r) => r.cls)),
      unusedJsBytes: median(runsOf.map((r) => r.unusedJsBytes)),
    });
  }
  return { pages };
}
