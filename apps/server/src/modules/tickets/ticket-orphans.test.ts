import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { TASKS } from '../../jobs/job-queue.js';
import { LOCAL_STORAGE_ENV, freshDataDir, storedNames } from '../../../test/storage-fixtures.js';
import { taskList } from '../../jobs/tasks.js';
import { storageKey } from '../../lib/storage/file-store.js';
import { LocalFileStore } from '../../lib/storage/local-store.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { TICKETS_FOLDER } from './ticket-files.js';
import { sweepTicketUploads } from './ticket-orphans.js';
import { attachment, openTicket } from './tickets.test-fixtures.js';

/**
 * The sweep's grace period, on the local driver: only there can a test set a file's time (the
 * local store keeps a key at its path under DATA_DIR). Both drivers: ticket-store.test.ts.
 */
let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp(LOCAL_STORAGE_ENV);
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const backdate = async (name: string) => {
  const past = new Date(Date.now() - 2 * 60 * 60 * 1000);
  await fs.utimes(path.join(t.dataDir, TICKETS_FOLDER, name), past, past);
};

describe('sweepTicketUploads', () => {
  it('removes old temp files and attachments no row names; keeps the rest', async () => {
    const ticket = await openTicket(t, h.u1.token, {}, [attachment(Buffer.from('a,b\n'), 'a.csv')]);
    const store = t.app.ctx.files;
    const [stored] = await storedNames(store, TICKETS_FOLDER);
    expect(stored).toMatch(/\.csv$/);
    const orphan = '00000000-0000-4000-8000-000000000000.txt';
    // Temp files of uploads from before they were staged outside the store's folder.
    const temp = '00000000-0000-4000-8000-000000000001.tmp';
    const young = '00000000-0000-4000-8000-000000000002.tmp';
    for (const name of [orphan, temp, young]) {
      await store.put(storageKey(TICKETS_FOLDER, name), Buffer.from('x'));
    }
    for (const name of [orphan, temp, stored!]) await backdate(name);

    expect(await sweepTicketUploads(t.db, store, 60 * 60 * 1000)).toBe(2);
    expect(await storedNames(store, TICKETS_FOLDER)).toEqual([stored!, young].sort());
    const res = await t.request({
      method: 'GET',
      url: `/api/tickets/${ticket._id}/attachments/${ticket.attachments[0]!.id}`,
      token: h.u1.token,
    });
    expect(res.statusCode).toBe(200);
    const emptyDir = await freshDataDir();
    try {
      expect(await sweepTicketUploads(t.db, new LocalFileStore(emptyDir), 0)).toBe(0);
    } finally {
      await fs.rm(emptyDir, { recursive: true, force: true });
    }
  });

  it('runs with the hourly upload sweep job', async () => {
    const name = '00000000-0000-4000-8000-000000000009.png';
    await t.app.ctx.files.put(storageKey(TICKETS_FOLDER, name), Buffer.from('x'));
    await backdate(name);
    // The task ignores its payload and helpers.
    const sweep = taskList(t.app.ctx)[TASKS.sweepUploads] as (payload: unknown) => Promise<void>;
    await sweep({});
    expect(await t.app.ctx.files.stat(storageKey(TICKETS_FOLDER, name))).toBeNull();
  });
});
