import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { STORAGE_DRIVERS, storedNames } from '../../../test/storage-fixtures.js';
import { storageKey } from '../../lib/storage/file-store.js';
import { TINY_PNG } from '../users/test-fixtures.js';
import { IMAGES_FOLDER } from './announcement-files.js';
import { sweepOrphanImages } from './announcement-orphans.js';
import { createAnnouncement, imagePart } from './announcements.test-fixtures.js';

/** Announcement images in the FileStore, on both drivers (docs/operations.md, File storage). */
describe.each(STORAGE_DRIVERS)('announcement images on the %s driver', (_driver, env) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(env());
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  it('serves an image stored through one instance from another, same bytes', async () => {
    const a = await createAnnouncement(t, admin, { title: 'shared' }, [imagePart(TINY_PNG)]);
    const other = await t.otherInstance();
    const res = await other.inject({ method: 'GET', url: a.image as string });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(TINY_PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(TINY_PNG.length));
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 404 for an image the store no longer has', async () => {
    const a = await createAnnouncement(t, admin, { title: 'lost' }, [imagePart(TINY_PNG)]);
    await t.app.ctx.files.delete(storageKey(IMAGES_FOLDER, path.basename(a.image as string)));
    const res = await t.request({ method: 'GET', url: a.image as string });
    expect(res.statusCode).toBe(404);
    expect(String(res.headers['cache-control'])).not.toMatch(/immutable/);
  });

  it('sweeps images no announcement names and keeps the rest', async () => {
    const a = await createAnnouncement(t, admin, { title: 'kept' }, [imagePart(TINY_PNG)]);
    const kept = path.basename(a.image as string);
    const orphan = '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a.png';
    const foreign = 'notes.txt';
    for (const name of [orphan, foreign]) {
      await t.app.ctx.files.put(storageKey(IMAGES_FOLDER, name), Buffer.from('x'));
    }
    // An object's time cannot be set on S3: a negative grace takes every file as old.
    expect(await sweepOrphanImages(t.db, t.app.ctx.files, -1)).toBe(1);
    const left = await storedNames(t.app.ctx.files, IMAGES_FOLDER);
    expect(left).toContain(kept);
    expect(left).toContain(foreign);
    expect(left).not.toContain(orphan);
  });
});
