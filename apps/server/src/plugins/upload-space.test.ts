import type * as FsPromises from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { server as msg } from '@herald/contract';
import { createTestApp, type TestApp } from '../../test/harness.js';
import {
  buildHierarchy,
  multipart,
  TINY_PNG,
  type Hierarchy,
} from '../modules/users/test-fixtures.js';

/** The folders whose disk was asked about, to see that it is the staging folder's. */
const statfsPaths = vi.hoisted(() => [] as string[]);
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const statfs = ((p: string, ...rest: []) => {
    statfsPaths.push(p);
    return real.statfs(p, ...rest);
  }) as typeof real.statfs;
  return { ...real, default: { ...real, statfs }, statfs };
});

/**
 * Uploads stop before the disk they are staged on fills: with less free space than
 * UPLOADS_MIN_FREE_MB every upload route answers 507 with its message, before reading a byte
 * (docs/operations.md, Settings). Uploads are staged in the instance's staging folder on every
 * storage driver, so that is the disk looked at. Here the bound is set above any disk.
 */
let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp({ UPLOADS_MIN_FREE_MB: '100000000' });
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

describe('uploads when the disk is low', () => {
  it('answer 507 on every upload route, and other routes work', async () => {
    const form = multipart(
      { companyName: 'Acme' },
      { field: 'companyLogo', filename: 'logo.png', type: 'image/png', data: TINY_PNG },
    );
    for (const [method, url, token] of [
      ['POST', '/api/whitelabel/settings', h.r1.token],
      ['POST', '/api/tickets', h.u1.token],
      ['POST', '/api/campaigns', h.u1.token],
      ['POST', '/api/announcements', h.admin],
      ['PUT', `/api/users/update/${h.r1.user.id}`, h.admin],
    ] as const) {
      const res = await t.request({ method, url, token, ...form });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(507);
      expect(res.json()).toEqual({ message: msg.storageLow });
    }
    expect((await t.request({ url: '/api/session', token: h.u1.token })).statusCode).toBe(200);
    expect(new Set(statfsPaths)).toEqual(new Set([t.app.ctx.stagingDir]));
  });
});
