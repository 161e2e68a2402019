import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { LOCAL_STORAGE_ENV, storedNames } from '../../../test/storage-fixtures.js';
import { storageKey } from '../../lib/storage/file-store.js';
import { TINY_PNG } from '../users/test-fixtures.js';
import { IMAGES_FOLDER } from './announcement-files.js';
import { sweepOrphanImages } from './announcement-orphans.js';
import { createAnnouncement, imagePart } from './announcements.test-fixtures.js';

/**
 * The sweep's grace period, on the local driver: only there can a test set a file's time (the
 * local store keeps a key at its path under DATA_DIR). Both drivers: announcement-files.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(LOCAL_STORAGE_ENV);
});
afterAll(() => t.close());

describe('sweepOrphanImages', () => {
  it('removes old images no announcement names, keeps young ones and the rest', async () => {
    const admin = await t.adminToken();
    const a = await createAnnouncement(t, admin, { title: 'kept' }, [imagePart(TINY_PNG)]);
    const store = t.app.ctx.files;
    const kept = path.basename(a.image as string);
    const orphan = '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a.png';
    const fresh = '2c2c2c2c-2c2c-4c2c-8c2c-2c2c2c2c2c2c.jpg';
    const foreign = 'notes.txt';
    for (const name of [orphan, fresh, foreign]) {
      await store.put(storageKey(IMAGES_FOLDER, name), Buffer.from('x'));
    }
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const name of [kept, orphan, foreign]) {
      await fs.utimes(path.join(t.dataDir, IMAGES_FOLDER, name), old, old);
    }

    expect(await sweepOrphanImages(t.db, store, 60 * 60 * 1000)).toBe(1);
    expect(await storedNames(store, IMAGES_FOLDER)).toEqual([fresh, kept, foreign].sort());
  });

  it('is fine when no image was ever uploaded', async () => {
    const other = await createTestApp(LOCAL_STORAGE_ENV);
    try {
      expect(await sweepOrphanImages(other.db, other.app.ctx.files, 0)).toBe(0);
    } finally {
      await other.close();
    }
  });
});
