import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { STORAGE_DRIVERS } from '../../../test/storage-fixtures.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { sweepOrphanFiles } from './campaign-orphans.js';
import { CAMPAIGN_FILES_FOLDER } from './campaign-files.js';
import { file, fund, png, postCampaign, storedFiles } from './campaigns.test-fixtures.js';

const HOUR = 60 * 60 * 1000;
const ORPHAN = '00000000-0000-4000-8000-000000000000.png';
const YOUNG = '00000000-0000-4000-8000-000000000001.png';
const key = (name: string) => `${CAMPAIGN_FILES_FOLDER}/${name}`;

describe.each(STORAGE_DRIVERS)('sweepOrphanFiles, %s driver', (driver, env) => {
  let t: TestApp;
  let h: Hierarchy;
  beforeAll(async () => {
    t = await createTestApp(env());
    h = await buildHierarchy(t);
    await fund(t, h.admin, h.u1.user.email, 'Normal Message - domestic', 10);
  });
  afterAll(() => t.close());

  /** A campaign with one image; answers the stored name its row references. */
  async function referencedFile(): Promise<string> {
    const before = await storedFiles(t);
    const res = await postCampaign(
      t,
      h.u1.token,
      { creditType: 'Normal Message - domestic', message: 'hi', to: '9876543210' },
      [file('images', png(300, 300), 'a.png')],
    );
    expect(res.statusCode, res.body).toBe(201);
    const [stored] = (await storedFiles(t)).filter((n) => !before.includes(n));
    expect(stored).toBeDefined();
    return stored!;
  }

  it('answers 0 while the folder holds nothing', async () => {
    expect(await sweepOrphanFiles(t.db, t.app.ctx.files, 0)).toBe(0);
  });

  it('removes files no campaign names once past the grace period, keeping referenced ones', async () => {
    const stored = await referencedFile();
    await t.app.ctx.files.put(key(ORPHAN), Buffer.from('x'));
    // Everything is younger than an hour: nothing goes, not even the orphan.
    expect(await sweepOrphanFiles(t.db, t.app.ctx.files, HOUR)).toBe(0);
    expect(await storedFiles(t)).toEqual([stored, ORPHAN].sort());
    // An object's time cannot be set back on S3: a negative grace period makes every file old.
    expect(await sweepOrphanFiles(t.db, t.app.ctx.files, -1000)).toBe(1);
    expect(await storedFiles(t)).toEqual([stored]);
  });

  it.runIf(driver === 'local')('on disk, goes by the files’ modified times', async () => {
    const stored = await referencedFile();
    const store = t.app.ctx.files;
    await store.put(key(ORPHAN), Buffer.from('x'));
    await store.put(key(YOUNG), Buffer.from('x'));
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    for (const name of [ORPHAN, stored]) {
      const onDisk = path.join(t.dataDir, CAMPAIGN_FILES_FOLDER, name);
      await fs.utimes(onDisk, twoHoursAgo, twoHoursAgo);
    }
    const before = await storedFiles(t);
    expect(await sweepOrphanFiles(t.db, store, HOUR)).toBe(1);
    expect(await storedFiles(t)).toEqual(before.filter((n) => n !== ORPHAN));
    expect(await storedFiles(t)).toContain(YOUNG);
  });
});
