import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhitelabelSettingsReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { STORAGE_DRIVERS, storedBytes, storedNames } from '../../../test/storage-fixtures.js';
import { storageKey } from '../../lib/storage/file-store.js';
import { TINY_PNG, buildHierarchy, multipart, type Hierarchy } from '../users/test-fixtures.js';
import { LOGOS_FOLDER } from './logo-files.js';
import { sweepOrphanLogos } from './logo-orphans.js';

/** Whitelabel logos in the FileStore, on both drivers (docs/operations.md, File storage). */
describe.each(STORAGE_DRIVERS)('logos on the %s driver', (_driver, env) => {
  let t: TestApp;
  let h: Hierarchy;
  beforeAll(async () => {
    t = await createTestApp(env());
    h = await buildHierarchy(t);
  });
  afterAll(() => t.close());

  async function saveLogo(token: string): Promise<string> {
    const res = await t.request({
      method: 'POST',
      url: '/api/whitelabel/settings',
      token,
      ...multipart(
        { companyName: 'Acme' },
        { field: 'companyLogo', filename: 'logo.png', type: 'image/png', data: TINY_PNG },
      ),
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json<WhitelabelSettingsReply>().companyLogo;
    expect(url).toMatch(/^\/api\/files\/logos\/[0-9a-f-]{36}\.png$/);
    return url!;
  }

  it('serves a logo stored through one instance from another, same bytes', async () => {
    const url = await saveLogo(h.r1.token);
    const name = path.basename(url);
    expect(await storedBytes(t.app.ctx.files, storageKey(LOGOS_FOLDER, name))).toEqual(TINY_PNG);
    const other = await t.otherInstance();
    const res = await other.inject({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(TINY_PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(TINY_PNG.length));
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
  });

  it('a replaced logo is deleted from the store', async () => {
    const first = path.basename(await saveLogo(h.r2.token));
    const second = path.basename(await saveLogo(h.r2.token));
    const names = await storedNames(t.app.ctx.files, LOGOS_FOLDER);
    expect(names).toContain(second);
    expect(names).not.toContain(first);
  });

  it('answers 404 for a logo the store no longer has', async () => {
    const url = await saveLogo(h.r1.token);
    await t.app.ctx.files.delete(storageKey(LOGOS_FOLDER, path.basename(url)));
    expect((await t.request({ method: 'GET', url })).statusCode).toBe(404);
  });

  it('sweeps logos no branding names and keeps the one in use', async () => {
    const kept = path.basename(await saveLogo(h.r1.token));
    const orphan = '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a.png';
    const foreign = 'notes.txt';
    for (const name of [orphan, foreign]) {
      await t.app.ctx.files.put(storageKey(LOGOS_FOLDER, name), Buffer.from('x'));
    }
    // An object's time cannot be set on S3: a negative grace takes every file as old.
    expect(await sweepOrphanLogos(t.db, t.app.ctx.files, -1)).toBe(1);
    const left = await storedNames(t.app.ctx.files, LOGOS_FOLDER);
    expect(left).toEqual(expect.arrayContaining([kept, foreign]));
    expect(left).not.toContain(orphan);
  });
});
