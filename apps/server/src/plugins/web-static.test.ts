import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let dist: string;

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

beforeAll(async () => {
  // A small stand-in for the Vite build: an index page and one hashed JS asset.
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-web-dist-'));
  await fs.mkdir(path.join(dist, 'assets'));
  await fs.writeFile(
    path.join(dist, 'index.html'),
    '<!doctype html><script type="module" src="/assets/index-abc.js"></script>',
  );
  await fs.writeFile(path.join(dist, 'assets', 'index-abc.js'), 'console.log(1);');
  await fs.writeFile(path.join(dist, 'assets', 'index-abc.css'), 'p{color:red}');
  await fs.writeFile(path.join(dist, 'assets', 'parser.worker-abc.js'), 'onmessage = () => {};');
  t = await createTestApp({ WEB_DIST: dist, TRUST_PROXY: 'true' });
});

afterAll(async () => {
  await t?.close();
  await fs.rm(dist, { recursive: true, force: true });
});

function expectWebHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']).split(';');
  expect(csp).toEqual(CSP);
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-content-type-options']).toBe('nosniff');
}

describe('web app security headers', () => {
  it.each([
    ['/', 'text/html'],
    ['/campaigns', 'text/html'],
    ['/assets/parser.worker-abc.js', 'javascript'],
  ])('%s carries the strict CSP and framing, referrer and sniffing headers', async (url, type) => {
    const res = await t.request({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(type);
    expectWebHeaders(res.headers);
    // Plain HTTP: no HSTS, which would pin a dev host to HTTPS.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it.each([
    ['/assets/index-abc.js', 'javascript'],
    ['/assets/index-abc.css', 'text/css'],
  ])('%s, read by a page, carries only the headers a subresource heeds', async (url, type) => {
    const res = await t.request({ url, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(type);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    for (const name of [
      'content-security-policy',
      'x-frame-options',
      'cross-origin-opener-policy',
      'strict-transport-security',
      'x-xss-protection',
    ]) {
      expect(res.headers[name], name).toBeUndefined();
    }
  });

  it('sends HSTS only when the request came over HTTPS', async () => {
    const res = await t.request({ url: '/campaigns', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expectWebHeaders(res.headers);
  });

  it('leaves the API with its own headers', async () => {
    const token = await t.adminToken();
    for (const url of ['/api/session', '/api/no-such-route']) {
      const res = await t.request({ url, token, headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('the app page fallback', () => {
  it('answers client routes with the app page and missing files with 404', async () => {
    for (const url of ['/campaigns', '/profile/5f0c6a1e-0000-4000-8000-000000000000', '/x?a=b.c']) {
      const res = await t.request({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
    }
    for (const url of ['/favicon.ico', '/assets/index-old.js', '/assets/app-old.css?v=1']) {
      const res = await t.request({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found.' });
    }
  });
});

describe('the page copies that preload their first chunks', () => {
  let pages: TestApp;
  let pagesDist: string;

  beforeAll(async () => {
    pagesDist = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-web-pages-'));
    for (const name of ['index', 'login', 'app']) {
      await fs.writeFile(path.join(pagesDist, `${name}.html`), `<!doctype html><p>${name}</p>`);
    }
    pages = await createTestApp({ WEB_DIST: pagesDist });
  });

  afterAll(async () => {
    await pages?.close();
    await fs.rm(pagesDist, { recursive: true, force: true });
  });

  it('sends login.html on the login page, app.html on the signed-in routes', async () => {
    const expected: [string, string][] = [
      ['/login', 'login'],
      ['/login?next=x', 'login'],
      ['/', 'app'],
      ['/admin', 'app'],
      ['/campaigns?status=Pending', 'app'],
      ['/set-password', 'index'],
      ['/unauthorized', 'index'],
    ];
    for (const [url, page] of expected) {
      const res = await pages.request({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toBe(`<!doctype html><p>${page}</p>`);
    }
  });

  it('sends index.html everywhere when the build wrote no copies', async () => {
    // The first app of this file serves a dist with index.html only.
    for (const url of ['/login', '/admin']) {
      const res = await t.request({ url });
      expect(res.body, url).toContain('/assets/index-abc.js');
    }
  });
});
