import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { buildHierarchy } from '../modules/users/test-fixtures.js';

/**
 * Compressed answers (docs/performance.md, Assets): the build's .br/.gz copies of the web app's
 * assets by Accept-Encoding, API answers compressed on the fly, never the live stream nor files
 * compressed already.
 */

let t: TestApp;
let dist: string;
let admin: string;

/** Big enough to be worth compressing, and different per kind. */
const ASSETS: Record<string, string> = {
  'assets/index-abc.js': `export const a = ${JSON.stringify('x'.repeat(4000))};\n`,
  'assets/index-abc.css': `.a{color:red}\n`.repeat(300),
  'assets/logo-abc.svg': `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(600)}</svg>`,
  'assets/data-abc.json': JSON.stringify({ rows: Array.from({ length: 300 }, (_, i) => i) }),
};

/** The app's page, which the build also compresses. */
const PAGE = `<!doctype html><title>x</title>${'<link rel="modulepreload" href="/a.js">'.repeat(60)}`;

beforeAll(async () => {
  // A stand-in for the Vite build: each asset beside its .br and .gz copies, as the build writes.
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-web-dist-'));
  await fs.mkdir(path.join(dist, 'assets'));
  for (const [name, text] of Object.entries({ ...ASSETS, 'index.html': PAGE })) {
    const file = path.join(dist, name);
    await fs.writeFile(file, text);
    await fs.writeFile(`${file}.br`, brotliCompressSync(text));
    await fs.writeFile(`${file}.gz`, gzipSync(text));
  }
  t = await createTestApp({ WEB_DIST: dist });
  admin = (await buildHierarchy(t)).admin;
});

afterAll(async () => {
  await t?.close();
  await fs.rm(dist, { recursive: true, force: true });
});

function decode(encoding: unknown, body: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

describe('compressed assets', () => {
  it.each(Object.keys(ASSETS))('%s: brotli, gzip or plain by Accept-Encoding', async (name) => {
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const res = await t.request({ url: `/${name}`, headers: { 'accept-encoding': accept } });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(expected);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decode(res.headers['content-encoding'], res.rawPayload)).toBe(ASSETS[name]);
      if (expected) expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    }
  });
});

describe('the compressed app page', () => {
  it.each(['/', '/campaigns?status=Pending'])(
    '%s: the page by Accept-Encoding, checked again on each visit',
    async (url) => {
      for (const [accept, expected] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['identity', undefined],
      ] as const) {
        const res = await t.request({ url, headers: { 'accept-encoding': accept } });
        expect(res.statusCode, accept).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(expected);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(decode(res.headers['content-encoding'], res.rawPayload)).toBe(PAGE);
      }
    },
  );
});

describe('compressed API answers', () => {
  it('a JSON answer over a kilobyte is brotli or gzip by Accept-Encoding; a small one is not', async () => {
    const url = '/api/users?limit=100';
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const res = await t.request({ url, token: admin, headers: { 'accept-encoding': accept } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(expected);
      const json = JSON.parse(decode(expected, res.rawPayload)) as { users: unknown[] };
      expect(json.users.length).toBeGreaterThan(5);
    }
    const small = await t.request({ url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses the live stream', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
      const req = http.get(
        `${base}/api/live`,
        {
          headers: {
            accept: 'text/event-stream',
            'accept-encoding': 'gzip, br',
            authorization: `Bearer ${admin}`,
          },
        },
        (res) => {
          resolve(res.headers);
          req.destroy();
        },
      );
      req.on('error', reject);
    });
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(headers['content-encoding']).toBeUndefined();
  });
});
