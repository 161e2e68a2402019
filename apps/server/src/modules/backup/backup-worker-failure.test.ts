import { once } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { saveBackup } from './backup-store.js';
import { STORAGE_DRIVERS, keysUnder } from '../../../test/storage-fixtures.js';
import type * as CopyWorkerModule from './copy-worker.js';

/**
 * The conversion thread dies while a backup is being written (here it is ended as its second
 * batch goes in): the backup fails with that error, no object (whole or partial) is left in
 * the store on either driver, the worker is not left running, and the pool goes on serving
 * queries.
 */
const started = vi.hoisted(() => [] as { ended: Promise<unknown> }[]);
vi.mock('./copy-worker.js', async (importOriginal) => {
  const real = await importOriginal<typeof CopyWorkerModule>();
  class DyingWorker extends real.CopyXmlWorker {
    private batches = 0;
    constructor() {
      super();
      started.push({ ended: once(this.thread, 'exit') });
    }
    override convert(tuples: Uint8Array, rows: number) {
      if (++this.batches === 2) void this.thread.terminate();
      return super.convert(tuples, rows);
    }
  }
  return { ...real, CopyXmlWorker: DyingWorker };
});

describe.each(STORAGE_DRIVERS)('a backup whose worker thread dies, %s driver', (driver, env) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(env());
    // Enough rows for several batches (recipients carry no foreign key to their campaign).
    await t.app.ctx.pool.query(
      `INSERT INTO campaign_recipients (campaign_id, phone)
       SELECT gen_random_uuid(), (9000000000 + g)::text FROM generate_series(1, 40000) g`,
    );
  });
  afterAll(() => t.close());

  it('fails cleanly: the error, no object saved, the worker gone, the pool fine', async () => {
    const before = started.length;
    await expect(saveBackup(t.app.ctx, 'manual')).rejects.toThrow(/backup worker exited/);
    expect(await keysUnder(t.app.ctx.files, 'backups/')).toEqual([]);
    // Nor a half-written file waiting in the local driver's write folder.
    if (driver === 'local') {
      const partial = await fs.readdir(path.join(t.dataDir, '.partial')).catch(() => []);
      expect(partial).toEqual([]);
    }
    expect(started.length).toBe(before + 1);
    await started[before]!.ended;
    const { rows } = await t.app.ctx.pool.query<{ n: number }>('SELECT 1 AS n');
    expect(rows[0]!.n).toBe(1);
  });
});
