import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { sweepOrphanFiles, sweepStaleTemps } from './campaign-orphans.js';
import { campaignsDir } from './campaign-files.js';
import { filesOnDisk, fund, png, postCampaign, file } from './campaigns.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, 'Normal Message - domestic', 10);
});
afterAll(() => t.close());

describe('sweepOrphanFiles', () => {
  it('removes old files no campaign names and keeps the rest', async () => {
    const res = await postCampaign(
      t,
      h.u1.token,
      { creditType: 'Normal Message - domestic', message: 'hi', to: '9876543210' },
      [file('images', png(300, 300), 'a.png')],
    );
    expect(res.statusCode, res.body).toBe(201);
    const dir = campaignsDir(path.join(t.dataDir, 'uploads'));
    const [stored] = await filesOnDisk(t);
    expect(stored).toBeDefined();

    const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const orphan = path.join(dir, '00000000-0000-4000-8000-000000000000.png');
    const young = path.join(dir, '00000000-0000-4000-8000-000000000001.png');
    const temp = path.join(dir, '00000000-0000-4000-8000-000000000002.tmp');
    for (const f of [orphan, young, temp]) await fs.writeFile(f, 'x');
    await fs.utimes(orphan, hourAgo, hourAgo);
    await fs.utimes(temp, hourAgo, hourAgo);
    await fs.utimes(path.join(dir, stored!), hourAgo, hourAgo);

    expect(await sweepOrphanFiles(t.db, dir, 60 * 60 * 1000)).toBe(1);
    expect((await filesOnDisk(t)).sort()).toEqual(
      [stored!, path.basename(young), path.basename(temp)].sort(),
    );
  });

  it('answers 0 when the directory does not exist yet', async () => {
    expect(await sweepOrphanFiles(t.db, path.join(t.dataDir, 'nowhere'), 0)).toBe(0);
  });
});

describe('sweepStaleTemps', () => {
  it('removes old temp files only', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-sweep-'));
    try {
      for (const n of ['old.tmp', 'new.tmp', 'kept.png'])
        await fs.writeFile(path.join(dir, n), 'x');
      const past = new Date(Date.now() - 2 * 60 * 60 * 1000);
      await fs.utimes(path.join(dir, 'old.tmp'), past, past);
      await fs.utimes(path.join(dir, 'kept.png'), past, past);
      expect(await sweepStaleTemps(dir, 60 * 60 * 1000)).toBe(1);
      expect((await fs.readdir(dir)).sort()).toEqual(['kept.png', 'new.tmp']);
      expect(await sweepStaleTemps(path.join(dir, 'missing'), 0)).toBe(0);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
