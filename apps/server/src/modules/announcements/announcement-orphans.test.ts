import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { TINY_PNG } from '../users/test-fixtures.js';
import { imagesDir } from './announcement-files.js';
import { sweepOrphanImages } from './announcement-orphans.js';
import { createAnnouncement, imagePart } from './announcements.test-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('sweepOrphanImages', () => {
  it('removes old images no announcement names and old temp files, keeps the rest', async () => {
    const admin = await t.adminToken();
    const a = await createAnnouncement(t, admin, { title: 'kept' }, [imagePart(TINY_PNG)]);
    const dir = imagesDir(t.app.ctx.uploadsDir);
    const kept = path.basename(a.image as string);
    const orphan = '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a.png';
    const temp = '.1b1b1b1b-1b1b-4b1b-8b1b-1b1b1b1b1b1b.tmp';
    const fresh = '2c2c2c2c-2c2c-4c2c-8c2c-2c2c2c2c2c2c.jpg';
    const foreign = 'notes.txt';
    for (const name of [orphan, temp, fresh, foreign]) fs.writeFileSync(path.join(dir, name), 'x');
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const name of [kept, orphan, temp, foreign]) fs.utimesSync(path.join(dir, name), old, old);

    expect(await sweepOrphanImages(t.db, t.app.ctx.uploadsDir, 60 * 60 * 1000)).toBe(2);
    expect(fs.readdirSync(dir).sort()).toEqual([fresh, kept, foreign].sort());
  });

  it('is fine when no image was ever uploaded', async () => {
    const other = await createTestApp();
    try {
      expect(await sweepOrphanImages(other.db, other.app.ctx.uploadsDir, 0)).toBe(0);
    } finally {
      await other.close();
    }
  });
});
