import { once } from 'node:events';
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { backupsDir, saveBackup } from './backup-store.js';
import type * as CopyWorkerModule from './copy-worker.js';

/**
 * The conversion thread dies while a backup is being written (here it is ended as its second
 * batch goes in): the backup fails with that error, no file (whole or partial) is left under
 * DATA_DIR/backups/, the worker is not left running, and the pool goes on serving queries.
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

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Enough rows for several batches (recipients carry no foreign key to their campaign).
  await t.app.ctx.pool.query(
    `INSERT INTO campaign_recipients (campaign_id, phone)
     SELECT gen_random_uuid(), (9000000000 + g)::text FROM generate_series(1, 40000) g`,
  );
});
afterAll(() => t.close());

describe('a backup whose worker thread dies', () => {
  it('fails cleanly: the error, no file saved, the worker gone, the pool fine', async () => {
    await expect(saveBackup(t.app.ctx, 'manual')).rejects.toThrow(/backup worker exited/);
    const left = await fs.readdir(backupsDir(t.app.ctx)).catch(() => [] as string[]);
    expect(left).toEqual([]);
    expect(started.length).toBe(1);
    await started[0]!.ended;
    const { rows } = await t.app.ctx.pool.query<{ n: number }>('SELECT 1 AS n');
    expect(rows[0]!.n).toBe(1);
  });
});
