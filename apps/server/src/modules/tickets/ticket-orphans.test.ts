import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { TASKS } from '../../jobs/job-queue.js';
import { taskList } from '../../jobs/tasks.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { sweepTicketUploads } from './ticket-orphans.js';
import { attachment, openTicket } from './tickets.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

describe('sweepTicketUploads', () => {
  it('removes old temp files and attachments no row names; keeps the rest', async () => {
    const ticket = await openTicket(t, h.u1.token, {}, [attachment(Buffer.from('a,b\n'), 'a.csv')]);
    const uploads = path.join(t.dataDir, 'uploads');
    const dir = path.join(uploads, 'tickets');
    const [stored] = await fs.readdir(dir);
    expect(stored).toMatch(/\.csv$/);
    const past = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const orphan = path.join(dir, '00000000-0000-4000-8000-000000000000.txt');
    const temp = path.join(dir, '00000000-0000-4000-8000-000000000001.tmp');
    const young = path.join(dir, '00000000-0000-4000-8000-000000000002.tmp');
    for (const f of [orphan, temp, young]) await fs.writeFile(f, 'x');
    for (const f of [orphan, temp, path.join(dir, stored!)]) await fs.utimes(f, past, past);

    expect(await sweepTicketUploads(t.db, uploads, 60 * 60 * 1000)).toBe(2);
    expect((await fs.readdir(dir)).sort()).toEqual([stored!, path.basename(young)].sort());
    const res = await t.request({
      method: 'GET',
      url: `/api/tickets/${ticket._id}/attachments/${ticket.attachments[0]!.id}`,
      token: h.u1.token,
    });
    expect(res.statusCode).toBe(200);
    expect(await sweepTicketUploads(t.db, path.join(t.dataDir, 'nowhere'), 0)).toBe(0);
  });

  it('runs with the hourly upload sweep job', async () => {
    const dir = path.join(t.dataDir, 'uploads', 'tickets');
    await fs.mkdir(dir, { recursive: true });
    const orphan = path.join(dir, '00000000-0000-4000-8000-000000000009.png');
    await fs.writeFile(orphan, 'x');
    const past = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await fs.utimes(orphan, past, past);
    // The task ignores its payload and helpers.
    const sweep = taskList(t.app.ctx)[TASKS.sweepUploads] as (payload: unknown) => Promise<void>;
    await sweep({});
    await expect(fs.stat(orphan)).rejects.toThrow();
  });
});
